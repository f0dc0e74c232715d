package dev.schedpolicy.engine.container;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 31 item 4: the container options with which no floor of ours can hold, and the ones that leave it alone. */
class ContainerEscapesTest {
    private static List<String> escapes(final String... options) {
        List<String> argv = new ArrayList<>(List.of("docker", "run", "-t", "-d", "-e", "TOKEN=s3cret"));
        argv.addAll(List.of(options));
        argv.addAll(List.of("mini:1", "cat"));
        return ContainerEscapes.of(((ContainerCommand.Container) ContainerCommand.parse(argv)).command());
    }

    @Test
    void shouldFindPrivilegedInEveryForm() {
        assertThat(escapes("--privileged", "--cgroupns=host")).singleElement().asString().startsWith("--privileged (");
        assertThat(escapes("--privileged=true")).hasSize(1);
        assertThat(escapes("--privileged=false")).isEmpty();
        assertThat(ContainerEscapes.of(((ContainerCommand.Container) ContainerCommand.parse(
                List.of("docker", "exec", "--privileged", "c1", "sh"))).command())).as("an exec with every capability").hasSize(1);
    }

    @Test
    void shouldFindTheCapabilitiesThatRaiseInAnyOfTheirValues() {
        assertThat(escapes("--cap-add=SYS_NICE")).singleElement().asString().startsWith("--cap-add SYS_NICE (realtime classes");
        assertThat(escapes("--cap-add", "NET_ADMIN", "--cap-add", "cap_sys_nice")).as("not only the last value").hasSize(1);
        assertThat(escapes("--cap-add=ALL")).hasSize(1);
        assertThat(escapes("--cap-add=NET_ADMIN,SYS_ADMIN")).singleElement().asString().contains("SYS_ADMIN (mounting a writable cgroupfs");
        assertThat(escapes("--cap-add=NET_ADMIN", "--cap-drop=SYS_NICE")).isEmpty();
    }

    @Test
    void shouldFindTheHostsPidNamespace() {
        assertThat(escapes("--pid=host")).singleElement().asString().startsWith("--pid=host");
        assertThat(escapes("--pid", "container:other")).isEmpty();
    }

    @Test
    void shouldFindEveryBindThatReachesTheCgroupfsOrProcButNoOther() {
        assertThat(escapes("-v", "/ws:/ws:rw,z", "-v", "/sys/fs/cgroup:/sys/fs/cgroup:ro")).singleElement().asString()
                .isEqualTo("a bind of /sys/fs/cgroup (the host's cgroups or scheduler settings from inside)");
        assertThat(escapes("-v/sys/fs/cgroup/cpu/:/c")).singleElement().asString().contains("/sys/fs/cgroup/cpu");
        assertThat(escapes("--volume=/proc/sys:/h")).hasSize(1);
        assertThat(escapes("-v", "/:/host")).as("a directory above the cgroupfs").hasSize(1);
        assertThat(escapes("-v", "/sys:/s")).hasSize(1);
        assertThat(escapes("--mount", "type=bind,source=/sys/fs/cgroup,target=/c")).hasSize(1);
        assertThat(escapes("--mount", "type=bind,src=/proc,dst=/p,readonly")).hasSize(1);
        assertThat(escapes("-v", "/ws:/ws", "-v", "cache:/sys/fs/cgroup", "-v", "/sys/fs/cgroup", "-v", "/system:/s",
                "--mount", "type=volume,source=vol,target=/proc")).as("named or anonymous volumes, unrelated paths").isEmpty();
    }

    @Test
    void shouldFindUnmaskedSystemPaths() {
        assertThat(escapes("--security-opt", "systempaths=unconfined")).singleElement().asString().contains("writable /proc/sys");
        assertThat(escapes("--security-opt", "no-new-privileges")).isEmpty();
    }

    @Test
    void shouldLeaveTheUsualInsideLineAndTheCredentialsAlone() {
        assertThat(escapes("-u", "1000:1000", "-w", "/ws", "-v", "/ws:/ws:rw,z", "-v", "/ws@tmp:/ws@tmp:rw,z", "--cgroupns=host"))
                .isEmpty();
        assertThat(escapes("--privileged", "-v", "/sys/fs/cgroup:/c", "--cap-add=SYS_NICE")).hasSize(3)
                .noneMatch(e -> e.contains("s3cret"));
    }
}
