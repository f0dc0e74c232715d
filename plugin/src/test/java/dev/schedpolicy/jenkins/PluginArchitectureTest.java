package dev.schedpolicy.jenkins;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.Recommendation;
import org.junit.jupiter.api.Test;

/** No decisions in the plugin: it reaches the engine only through the agent facade, the fleet model and the policy model's types. */
class PluginArchitectureTest {
    private static final JavaClasses PLUGIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.schedpolicy.jenkins");

    @Test
    void shouldCallTheEngineOnlyThroughItsAgentFacadeAndModelTypes() {
        noClasses().that().resideInAPackage("dev.schedpolicy.jenkins..")
                .should().dependOnClassesThat(resideInAPackage("dev.schedpolicy.engine..")
                        .and(not(resideInAnyPackage("dev.schedpolicy.engine.agent..", "dev.schedpolicy.engine.policy..",
                                "dev.schedpolicy.engine.fleet..", "dev.schedpolicy.engine.buildpage..")))
                        // the fleet view's summary carries the probe's table and recommendation as these records
                        .and(not(belongToAnyOf(Capability.class, Recommendation.class))))
                .because("every rule belongs in the engine, tested in the default build; the plugin copies fields and calls"
                        + " dev.schedpolicy.engine.agent (and reads the models of the fleet view, dev.schedpolicy.engine.fleet, and of"
                        + " the build page, dev.schedpolicy.engine.buildpage)")
                .check(PLUGIN);
    }

    @Test
    void shouldNotTouchNativeCodeOrTheKernelDirectly() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("com.sun.jna..", "dev.schedpolicy.engine.jna..",
                "dev.schedpolicy.engine.launch..", "dev.schedpolicy.engine.cgroup..").check(PLUGIN);
    }
}
