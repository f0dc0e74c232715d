package dev.schedpolicy.cli;

import picocli.CommandLine;

/**
 * Integers in ASCII digits only. picocli's default converter is Integer.valueOf, which also takes digits of
 * other scripts ({@code --nice ١٩} would be nice 19): a value a user cannot read is refused.
 */
final class AsciiInteger implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(final String value) {
        if (value == null || !value.matches("[+-]?[0-9]{1,9}")) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number in digits 0-9");
        }
        return Integer.valueOf(value);
    }
}
