package dev.schedpolicy.engine;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** Keeps the layers honest: the engine stays Jenkins-free and native code stays in one package. */
class ArchitectureTest {
    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.schedpolicy.engine");
    }

    @Test
    void shouldNotDependOnJenkins() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("hudson..", "jenkins..", "org.jenkinsci..", "org.kohsuke..")
                .check(engine);
    }

    @Test
    void shouldKeepJnaInTheBindingPackage() {
        noClasses().that().resideOutsideOfPackage("dev.schedpolicy.engine.jna")
                .should().dependOnClassesThat().resideInAPackage("com.sun.jna..")
                .because("only the jna binding package may touch native code").check(engine);
    }

    @Test
    void shouldNotLetPolicyModelDependOnTheSystem() {
        noClasses().that().resideInAPackage("dev.schedpolicy.engine.policy")
                .should().dependOnClassesThat().resideInAnyPackage("dev.schedpolicy.engine.launch..", "dev.schedpolicy.engine.jna..",
                        "dev.schedpolicy.engine.cgroup..", "dev.schedpolicy.engine.proc..")
                .check(engine);
    }

    @Test
    void shouldBuildTheBuildPageModelWithoutTheAgentOrTheSystem() {
        noClasses().that().resideInAPackage("dev.schedpolicy.engine.buildpage")
                .should().dependOnClassesThat().resideInAnyPackage("dev.schedpolicy.engine.agent..",
                        "dev.schedpolicy.engine.launch..", "dev.schedpolicy.engine.jna..", "dev.schedpolicy.engine.cgroup..",
                        "dev.schedpolicy.engine.proc..", "dev.schedpolicy.engine.linux..")
                .because("the build page's model is made on the controller from records the agents sent")
                .check(engine);
    }

    @Test
    void shouldKeepThePackagesFreeOfCycles() {
        slices().matching("dev.schedpolicy.engine.(*)..").should().beFreeOfCycles().check(engine);
    }

    @Test
    void shouldGiveEveryExceptionAMessage() {
        classes().that().areAssignableTo(Throwable.class).should(haveNoConstructorWithoutArguments()).check(engine);
    }

    private static ArchCondition<com.tngtech.archunit.core.domain.JavaClass> haveNoConstructorWithoutArguments() {
        return new ArchCondition<>("have no non-private constructor without arguments (an exception needs a message)") {
            @Override
            public void check(final com.tngtech.archunit.core.domain.JavaClass item, final ConditionEvents events) {
                for (JavaConstructor c : item.getConstructors()) {
                    if (c.getRawParameterTypes().isEmpty() && !c.getModifiers().contains(JavaModifier.PRIVATE)) {
                        events.add(SimpleConditionEvent.violated(item, item.getName() + " has a constructor without a message"));
                    }
                }
            }
        };
    }
}
