package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.casc.ConfigurationAsCode;
import io.jenkins.plugins.casc.ConfiguratorException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.yaml.snakeyaml.Yaml;

/**
 * Configuration as Code through configuration-as-code's own API (what CASC_JENKINS_CONFIG does at start-up; the
 * live suite's 87-casc does it at start-up for real): the YAML that docs/jenkins.md shows users is applied and read
 * back, exported with the same keys, and a bad value is refused with the plugin's reason.
 */
@WithJenkins
class CascTest {
    private JenkinsRule j;
    @TempDir
    Path dir;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    /** The YAML block of docs/jenkins.md's "Configuration as Code" section, as users copy it. */
    static String docsYaml() throws Exception {
        String docs = Files.readString(Path.of("..", "docs", "jenkins.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("### Configuration as Code\\s+```yaml\\n(.*?)```", Pattern.DOTALL).matcher(docs);
        assertThat(m.find()).as("a yaml block under docs/jenkins.md's Configuration as Code").isTrue();
        return m.group(1);
    }

    private void apply(final String yaml) throws Exception {
        Path file = dir.resolve("jenkins.yaml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        ConfigurationAsCode.get().configure(file.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> global(final Map<String, Object> casc) {
        return (Map<String, Object>) ((Map<String, Object>) casc.get("unclassified")).get("schedPolicy");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> nodeProperty(final Map<String, Object> casc, final String node) {
        for (Object n : (List<Object>) ((Map<String, Object>) casc.get("jenkins")).get("nodes")) {
            Map<String, Object> permanent = (Map<String, Object>) ((Map<String, Object>) n).get("permanent");
            if (permanent != null && node.equals(permanent.get("name"))) {
                for (Object p : (List<Object>) permanent.get("nodeProperties")) {
                    Object ours = ((Map<String, Object>) p).get("schedPolicy");
                    if (ours != null) {
                        return (Map<String, Object>) ours;
                    }
                }
            }
        }
        throw new AssertionError("no schedPolicy property of node " + node + " in " + casc);
    }

    @Test
    void shouldApplyTheYamlOfTheDocsAndReadItBack() throws Exception {
        String yaml = docsYaml();
        Map<String, Object> wanted = new Yaml().load(yaml);
        apply(yaml);
        SchedPolicyConfiguration c = SchedPolicyConfiguration.get();
        Map<String, Object> g = global(wanted);
        assertThat(c.getDefaultPolicy()).isEqualTo(g.get("defaultPolicy"));
        assertThat(c.isAllowRaise()).isEqualTo(g.get("allowRaise"));
        assertThat(c.getMinNice()).isEqualTo(g.get("minNice"));
        assertThat(c.isAllowCgroups()).isEqualTo(g.get("allowCgroups"));
        assertThat(c.getMaxQuotaPercent()).isEqualTo(g.get("maxQuotaPercent"));
        assertThat(c.isAllowAboveDefault()).isEqualTo(g.get("allowAboveDefault"));
        assertThat(c.getCgroupParent()).isEqualTo(g.get("cgroupParent"));
        assertThat(c.getHandshakeTimeoutSeconds()).isEqualTo(g.get("handshakeTimeoutSeconds"));
        assertThat(c.isMeasureAllSteps()).isEqualTo(g.get("measureAllSteps"));
        assertThat(c.getGuardJobs()).isEqualTo(g.get("guardJobs"));
        assertThat(c.getGuardStages()).isEqualTo(g.get("guardStages"));
        assertThat(c.getGuardWholeJobs()).isEqualTo(g.get("guardWholeJobs"));
        assertThat(c.getGuardLabel()).isEqualTo(g.get("guardLabel"));
        assertThat(c.getBenchmarkMaxLoad()).isEqualTo(g.get("benchmarkMaxLoad"));
        assertThat(c.getBenchmarkMaxRepetitions()).isEqualTo(g.get("benchmarkMaxRepetitions"));
        assertThat(c.getBenchmarkMaxMinutes()).isEqualTo(g.get("benchmarkMaxMinutes"));
        assertThat(new hudson.XmlFile(new java.io.File(j.jenkins.getRootDir(), SchedPolicyConfiguration.class.getName() + ".xml")).asString()).as("saved in JENKINS_HOME").contains("<defaultPolicy>" + g.get("defaultPolicy"));

        Map<String, Object> n = nodeProperty(wanted, "builder-1");
        SchedPolicyNodeProperty p = j.jenkins.getNode("builder-1").getNodeProperties().get(SchedPolicyNodeProperty.class);
        assertThat(p.getPolicy()).isEqualTo(n.get("policy"));
        assertThat(p.getCgroupParent()).isEqualTo(n.get("cgroupParent"));
        assertThat(p.getGuardStages()).isEqualTo(n.get("guardStages"));
        assertThat(p.getGuardWholeJobs()).isEqualTo(n.get("guardWholeJobs"));
        assertThat(NodeDefaults.policySourceOf(j.jenkins.getNode("builder-1"))).isEqualTo("node property");
    }

    /** The export has the docs' keys with their values: global settings and node property alike. */
    @Test
    void shouldExportTheSameKeys() throws Exception {
        String yaml = docsYaml();
        apply(yaml);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConfigurationAsCode.get().export(out);
        Map<String, Object> exported = new Yaml().load(out.toString(StandardCharsets.UTF_8));
        Map<String, Object> wanted = new Yaml().load(yaml);
        assertThat(global(exported)).isEqualTo(global(wanted));
        assertThat(nodeProperty(exported, "builder-1")).isEqualTo(nodeProperty(wanted, "builder-1"));
        // and the export applies again to the same settings
        apply(out.toString(StandardCharsets.UTF_8));
        assertThat(SchedPolicyConfiguration.get().getDefaultPolicy()).isEqualTo(global(wanted).get("defaultPolicy"));
    }

    @Test
    void shouldRefuseAnUnknownDefaultPolicyWithThePluginsReason() throws Exception {
        String bad = docsYaml().replaceFirst("defaultPolicy: .*", "defaultPolicy: \"turbo\"");
        assertThatThrownBy(() -> apply(bad)).isInstanceOf(ConfiguratorException.class)
                .hasMessageContaining("defaultPolicy")
                .rootCause().hasMessageStartingWith("unknown policy token 'turbo' in 'turbo'; use tokens joined by '+'");
        assertThat(SchedPolicyConfiguration.get().getDefaultPolicy()).isNull();
    }

    @Test
    void shouldRefuseAPatternOfGuardedJobsThatDoesNotCompileWithThePluginsReason() throws Exception {
        String bad = docsYaml().replaceFirst("guardJobs: .*", "guardJobs: \"tests(\"");
        assertThatThrownBy(() -> apply(bad)).isInstanceOf(ConfiguratorException.class)
                .rootCause().hasMessageStartingWith("the jobs that may guard must be a Java regular expression");
        assertThat(SchedPolicyConfiguration.get().getGuardJobs()).isNull();
    }

    @Test
    void shouldRefuseAPatternOfGuardedStagesThatDoesNotCompileWithThePluginsReason() throws Exception {
        String bad = docsYaml().replaceFirst("guardStages: .*", "guardStages: \"test(\"");
        assertThatThrownBy(() -> apply(bad)).isInstanceOf(ConfiguratorException.class)
                .rootCause().hasMessageStartingWith("the stages to guard must be a Java regular expression");
        assertThat(SchedPolicyConfiguration.get().getGuardStages()).isNull();
    }

    @Test
    void shouldRefuseALabelOfGuardedNodesThatDoesNotParseWithThePluginsReason() throws Exception {
        String bad = docsYaml().replaceFirst("guardLabel: .*", "guardLabel: \"test-pool &&\"");
        assertThatThrownBy(() -> apply(bad)).isInstanceOf(ConfiguratorException.class)
                .rootCause().hasMessageStartingWith("the nodes whose steps run guarded must be a Jenkins label expression");
        assertThat(SchedPolicyConfiguration.get().getGuardLabel()).isNull();
    }

    @Test
    void shouldRefuseAnUnknownNodePolicyWithThePluginsReason() throws Exception {
        String bad = docsYaml().replace("policy: \"idle+warn\"", "policy: \"idle+loud\"");
        assertThatThrownBy(() -> apply(bad)).isInstanceOf(ConfiguratorException.class)
                .rootCause().hasMessageContaining("unknown policy token 'loud'");
        assertThat(j.jenkins.getNode("builder-1")).isNull();
    }
}
