package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PreparedLaunchTest {
    @Test
    void shouldInsertAfterTheSubcommandAndShiftTheMasksWithTheArguments() {
        PreparedLaunch p = new PreparedLaunch("ct-1", 2, List.of("--cgroup-parent=/i", "--cidfile=/s/cid"));
        List<String> cmd = List.of("docker", "run", "-e", "SECRET=x", "img");
        assertThat(p.command(cmd)).containsExactly("docker", "run", "--cgroup-parent=/i", "--cidfile=/s/cid", "-e", "SECRET=x", "img");
        assertThat(p.masks(new boolean[] {false, false, false, true, false}))
                .containsExactly(false, false, false, false, false, true, false);
        assertThat(p.commandPrefix()).isEmpty();
    }

    @Test
    void shouldPrependTheShimOfAParkedLaunch() {
        PreparedLaunch p = new PreparedLaunch("hs-1", List.of("/bin/sh", "/s/shim.sh", "/s/hs-1"));
        assertThat(p.prefix(List.of("make"))).containsExactly("/bin/sh", "/s/shim.sh", "/s/hs-1", "make");
        assertThat(p.prefixMasks(new boolean[] {true})).containsExactly(false, false, false, true);
        assertThat(p.masks(null)).isNull();
    }
}
