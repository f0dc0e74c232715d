package dev.schedpolicy.dist;

import dev.schedpolicy.cli.Main;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the bash completion script and the man pages (AsciiDoc, turned into troff by asciidoctor in this
 * module's build) from the command line's own picocli model, so they always match the options.
 */
public final class DocGen {
    private DocGen() {
    }

    /** @param args the output directory; completion/ and man-adoc/ are made in it */
    public static void main(final String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: DocGen OUTPUT_DIR");
        }
        Path out = Path.of(args[0]);
        CommandLine cl = Main.commandLine();
        Path completion = Files.createDirectories(out.resolve("completion"));
        Files.writeString(completion.resolve("schedpolicy"), AutoComplete.bash("schedpolicy", cl));
        Path adoc = Files.createDirectories(out.resolve("man-adoc"));
        int rc = ManPageGenerator.generateManPage(adoc.toFile(), null, new boolean[0], true, cl.getCommandSpec());
        if (rc != 0) {
            throw new IllegalStateException("picocli's ManPageGenerator failed with exit code " + rc);
        }
    }
}
