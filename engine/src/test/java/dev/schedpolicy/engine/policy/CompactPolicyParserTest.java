package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompactPolicyParserTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "default                | default",
        "none                   | default",
        "normal                 | normal",
        "other                  | normal",
        "batch                  | batch",
        "idle                   | idle",
        "fifo                   | fifo:1",
        "fifo:50                | fifo:50",
        "rr                     | rr:1",
        "rr:99                  | rr:99",
        "nice0                  | nice0",
        "nice19                 | nice19",
        "nice=7                 | nice7",
        "nice-5                 | nice-5",
        "nice=-20               | nice-20",
        "io-idle                | io-idle",
        "io=idle                | io-idle",
        "io-be7                 | io-be7",
        "io-be:4                | io-be4",
        "io=be:5                | io-be5",
        "io-rt0                 | io-rt0",
        "io-rt:3                | io-rt3",
        "quota50                | quota50",
        "quota=150              | quota150",
        "weight1                | weight1",
        "weight=10000           | weight10000",
        "cpu-idle               | cpu-idle",
        "cpuidle                | cpu-idle",
        "no-cpu-idle            | no-cpu-idle",
        "cpus=0-1               | cpus=0-1",
        "cpus1                  | cpus=1",
        "cpus=0,1,3             | cpus=0-1,3",
        "warn                   | warn",
        "fail                   | fail",
    })
    void shouldParseEveryTokenFormIntoItsCanonicalCompactForm(final String text, final String canonical) {
        Policy p = Policy.parse(text);

        assertThat(p.toCompact()).isEqualTo(canonical);
        assertThat(Policy.parse(canonical)).isEqualTo(p);
    }

    @Test
    void shouldFillEveryFieldFromOneCompactText() {
        Policy p = Policy.parse("batch+nice19+io-be7+quota50+weight200+cpus=0+warn");

        assertThat(p.schedClass()).contains(SchedClass.BATCH);
        assertThat(p.nice()).hasValue(19);
        assertThat(p.io()).contains(IoPriority.bestEffort(7));
        assertThat(p.cpuQuotaPercent()).hasValue(50);
        assertThat(p.cpuWeight()).hasValue(200);
        assertThat(p.cpus()).contains(CpuList.parse("0"));
        assertThat(p.onUnsupported()).isEqualTo(OnUnsupported.WARN);
        assertThat(p.needsCgroup()).isTrue();
        assertThat(p.isDefault()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "idle",
        "batch+nice19",
        "nice10+io-idle+quota50",
        "batch+nice19+io-idle",
        "idle+quota25+cpu-idle+cpus=0-1+warn",
        "normal+nice0+io-be4+weight100+no-cpu-idle+fail",
        "rr:10+nice-3+io-rt2",
        "default",
    })
    void shouldRoundTripThroughTheCompactForm(final String text) {
        Policy p = Policy.parse(text);

        assertThat(p.toCompact()).isEqualTo(text);
        assertThat(Policy.parse(p.toCompact())).isEqualTo(p).hasSameHashCodeAs(p);
        assertThat(p).hasToString(text);
    }

    @Test
    void shouldRoundTripABuiltPolicyWithEveryField() {
        Policy built = Policy.builder().schedClass(SchedClass.IDLE).nice(12).io(IoPriority.idle()).cpuQuotaPercent(150)
                .cpuIdle(true).cpus("1").onUnsupported(OnUnsupported.WARN).build();

        assertThat(built.toCompact()).isEqualTo("idle+nice12+io-idle+quota150+cpu-idle+cpus=1+warn");
        assertThat(Policy.parse(built.toCompact())).isEqualTo(built);
    }

    @Test
    void shouldWriteTokensInCanonicalOrderWhateverTheInputOrder() {
        assertThat(Policy.parse("warn+quota50+io-idle+nice19+batch").toCompact())
                .isEqualTo("batch+nice19+io-idle+quota50+warn");
    }

    @Test
    void shouldIgnoreCaseAndSpacesAroundTokens() {
        assertThat(Policy.parse("  BATCH + Nice19 + IO-Idle ")).isEqualTo(Policy.parse("batch+nice19+io-idle"));
    }

    @Test
    void shouldTreatDefaultAsNoChangeAtAll() {
        assertThat(Policy.parse("default")).isEqualTo(Policy.DEFAULT);
        assertThat(Policy.DEFAULT.isDefault()).isTrue();
        assertThat(Policy.DEFAULT.needsCgroup()).isFalse();
        assertThat(Policy.DEFAULT.onUnsupported()).isEqualTo(OnUnsupported.FAIL);
    }

    @Test
    void shouldNeedACgroupOnlyForQuotaWeightOrIdleGroup() {
        assertThat(Policy.parse("batch+nice19+io-idle+cpus=0").needsCgroup()).isFalse();
        assertThat(Policy.parse("quota50").needsCgroup()).isTrue();
        assertThat(Policy.parse("weight50").needsCgroup()).isTrue();
        assertThat(Policy.parse("cpu-idle").needsCgroup()).isTrue();
        assertThat(Policy.parse("no-cpu-idle").needsCgroup()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void shouldRejectAnEmptyPolicyAndShowTheSyntax(final String text) {
        assertThatThrownBy(() -> Policy.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("policy is empty; use tokens joined by '+'")
                .hasMessageContaining("e.g. 'idle', 'batch+nice19', 'nice10+io-idle+quota50'");
    }

    @Test
    void shouldRejectNullAsEmpty() {
        assertThatThrownBy(() -> Policy.parse(null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("policy is empty");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "turbo              | turbo",
        "batch+turbo        | turbo",
        "batch++nice19      | ''",
        "nice               | nice",
        "nicex              | nicex",
        "nice1234567        | nice1234567",
        "quota              | quota",
        "fifo:1000          | fifo:1000",
    })
    void shouldRejectAnUnknownTokenNamingItAndListingTheTokens(final String text, final String token) {
        assertThatThrownBy(() -> Policy.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("unknown policy token '" + token + "' in '" + text + "'; use ")
                .hasMessageContaining("normal|batch|idle, niceN (0..19), io-idle|io-beN (4..7)")
                .hasMessageContaining("warn|fail");
    }

    @Test
    void shouldRejectDeadlineSayingWhatIsSupported() {
        assertThatThrownBy(() -> Policy.parse("deadline")).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("SCHED_DEADLINE is not supported; use tokens joined by '+'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "nice20       | nice must be 0..19 (19 is the lowest priority), not 20",
        "nice-21      | nice must be -20..19 where raising is allowed (0..19 otherwise), not -21",
        "quota0       | CPU quota must be a positive percent of one CPU (e.g. 50 for half a CPU, 150 for one and a half), not 0",
        "quota-5      | CPU quota must be a positive percent of one CPU",
        "weight0      | CPU weight must be 1..10000 (100 is the default), not 0",
        "weight10001  | CPU weight must be 1..10000 (100 is the default), not 10001",
        "fifo:0       | realtime priority must be 1..99, not 0",
        "rr:100       | realtime priority must be 1..99, not 100",
        "io-be8       | I/O priority must be 'idle' or 'be:N' with N 4..7 (7 lowest; be:0..3 and rt:N raise priority and need raising allowed), not 'be8'",
        "io-best      | I/O priority must be 'idle' or 'be:N' with N 4..7 (7 lowest; be:0..3 and rt:N raise priority and need raising allowed), not 'best'",
        "cpus=3-1     | CPU range '3-1' in '3-1' is not valid; ranges go low-high with CPUs 0..8191",
        "cpus=x       | CPU list 'x' is not valid; write CPUs as in taskset -c",
        "cpus=        | CPU list is empty; write CPUs as in taskset -c",
        "weight50+cpu-idle | CPU weight and cpu-idle cannot be combined",
    })
    void shouldRejectOutOfRangeValuesSayingWhatIsAllowed(final String text, final String message) {
        assertThatThrownBy(() -> Policy.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "batch+idle | policy 'batch+idle' gives the scheduling class twice ('batch' and 'idle'); give each part once",
        "nice5+nice=7 | policy 'nice5+nice=7' gives the nice value twice ('nice5' and 'nice=7')",
        "quota50+io-idle+quota20 | policy 'quota50+io-idle+quota20' gives the CPU quota twice",
        "warn+fail | policy 'warn+fail' gives the on-unsupported setting twice",
        "io-idle+io-be7 | policy 'io-idle+io-be7' gives the I/O priority twice",
    })
    void shouldRejectAPartGivenTwiceInsteadOfSilentlyPickingOne(final String text, final String message) {
        assertThatThrownBy(() -> Policy.parse(text)).isInstanceOf(InvalidPolicyException.class).hasMessageStartingWith(message);
    }
}
