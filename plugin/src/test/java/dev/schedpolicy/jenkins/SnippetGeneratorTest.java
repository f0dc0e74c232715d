package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.htmlunit.WebResponse;
import org.htmlunit.util.NameValuePair;
import org.jenkinsci.plugins.workflow.cps.Snippetizer;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * What the snippet generator (Pipeline Syntax) makes of the steps' forms: the page posts the form as JSON to
 * {@code generateSnippet}, as here, and shows the text it answers.
 */
@WithJenkins
class SnippetGeneratorTest {
    private JenkinsRule j;
    private WorkflowJob job;

    @BeforeEach
    void setUp(final JenkinsRule rule) throws Exception {
        j = rule;
        job = j.jenkins.createProject(WorkflowJob.class, "p");
    }

    /** The form as the page submits it: every field present, the unused ones blank. */
    private String generate(final String json) throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        WebRequest request = new WebRequest(new URL(j.getURL(), job.getUrl() + Snippetizer.GENERATE_URL),
                HttpMethod.POST);
        // addCrumb would replace the parameters: the crumb goes in as one of them
        request.setRequestParameters(List.of(new NameValuePair("json", json),
                new NameValuePair(j.jenkins.getCrumbIssuer().getDescriptor().getCrumbRequestField(),
                        j.jenkins.getCrumbIssuer().getCrumb((jakarta.servlet.ServletRequest) null))));
        WebResponse response = wc.getPage(request).getWebResponse();
        assertThat(response.getContentType()).isEqualTo("text/plain");
        return response.getContentAsString().trim();
    }

    private static String step(final String policy, final String more) {
        return "{\"stapler-class\":\"" + WithSchedPolicyStep.class.getName() + "\",\"policy\":\"" + policy + "\","
                + "\"nice\":\"\",\"io\":\"\",\"cpuQuota\":\"\",\"cpuWeight\":\"\",\"cpuIdle\":\"\",\"cpus\":\"\",\"onUnsupported\":\"\""
                + more + "}";
    }

    @Test
    void shouldGenerateThePositionalFormForAPolicyAlone() throws Exception {
        assertThat(generate(step("idle", ""))).startsWith("withSchedPolicy('idle') {\n").endsWith("}");
    }

    /** The blank "inherit" choice of cpuIdle stays out of the call; a blank would otherwise read cpuIdle: false. */
    @Test
    void shouldGenerateNamedArgumentsAndLeaveUnsetChoicesOut() throws Exception {
        String json = step("batch", "").replace("\"nice\":\"\"", "\"nice\":\"19\"").replace("\"io\":\"\"", "\"io\":\"idle\"");
        assertThat(generate(json)).startsWith("withSchedPolicy(io: 'idle', nice: 19, policy: 'batch') {").doesNotContain("cpuIdle");
    }

    @Test
    void shouldGenerateEveryOptionThatWasSet() throws Exception {
        String json = step("", "").replace("\"cpuQuota\":\"\"", "\"cpuQuota\":\"50\"").replace("\"cpuIdle\":\"\"", "\"cpuIdle\":\"true\"")
                .replace("\"cpus\":\"\"", "\"cpus\":\"0\"").replace("\"onUnsupported\":\"\"", "\"onUnsupported\":\"warn\"");
        assertThat(generate(json)).startsWith("withSchedPolicy(cpuIdle: true, cpuQuota: 50, cpus: '0', onUnsupported: 'warn') {");
    }

    @Test
    void shouldGenerateTheGuardBlockWithoutArguments() throws Exception {
        assertThat(generate("{\"stapler-class\":\"" + WithSchedGuardStep.class.getName() + "\"}"))
                .startsWith("withSchedGuard {\n").endsWith("}");
        assertThat(j.createWebClient().goTo("pipeline-syntax/").asXml()).contains("withSchedGuard: Guard the body");
    }

    @Test
    void shouldGenerateTheBenchmarkStepWithItsScenario() throws Exception {
        String json = "{\"stapler-class\":\"" + BenchmarkStep.class.getName() + "\",\"scenario\":\"seed-cpu-looper\",\"quick\":\"\","
                + "\"policies\":\"\",\"loads\":\"\",\"repetitions\":\"\",\"victim\":\"\",\"background\":\"\",\"gatePolicy\":\"idle\","
                + "\"unstableBelow\":\"0\",\"failBelow\":\"0\"}";
        assertThat(generate(json)).isEqualTo("schedBenchmark 'seed-cpu-looper'");
    }

    @Test
    void shouldGenerateABenchmarkWithAGate() throws Exception {
        String json = "{\"stapler-class\":\"" + BenchmarkStep.class.getName() + "\",\"scenario\":\"seed-cpu-looper\",\"quick\":\"true\","
                + "\"policies\":\"default,idle\",\"loads\":\"1\",\"repetitions\":\"1\",\"victim\":\"\",\"background\":\"\","
                + "\"gatePolicy\":\"idle\",\"unstableBelow\":\"80\",\"failBelow\":\"0\"}";
        assertThat(generate(json)).isEqualTo(
                "schedBenchmark loads: '1', policies: 'default,idle', quick: true, repetitions: 1, scenario: 'seed-cpu-looper', unstableBelow: 80.0");
    }

    /** The Pipeline graph and the steps' list show a block by its policy in compact form. */
    @Test
    void shouldShowTheCompactPolicyAsTheBlocksArguments() {
        WithSchedPolicyStep.DescriptorImpl d = j.jenkins.getDescriptorByType(WithSchedPolicyStep.DescriptorImpl.class);
        assertThat(d.argumentsToString(java.util.Map.of("policy", "batch", "nice", 19, "io", "idle"))).isEqualTo("batch+nice19+io-idle");
        assertThat(d.argumentsToString(java.util.Map.of("policy", "turbo"))).isNull();
    }
}
