package dev.schedpolicy.engine.bench;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/** The benchmark wing stays a set of small classes that depend on each other one way only. */
class BenchArchitectureTest {
    private static final JavaClasses BENCH = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.schedpolicy.engine.bench");

    @Test
    void shouldHaveNoCyclesBetweenClasses() {
        slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass c) {
                // a nested class belongs to its top-level class
                return SliceIdentifier.of(c.getName().replaceAll("\\$.*", ""));
            }

            @Override
            public String getDescription() {
                return "top-level classes of the benchmark";
            }
        }).should().beFreeOfCycles().check(BENCH);
    }
}
