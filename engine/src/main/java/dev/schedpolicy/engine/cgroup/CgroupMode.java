package dev.schedpolicy.engine.cgroup;

/** How the machine mounts cgroups as a whole. */
public enum CgroupMode {
    /** Only v1 hierarchies (older distributions, many container hosts). */
    V1,
    /** Only the unified v2 hierarchy (current systemd distributions). */
    V2,
    /** v1 controller hierarchies plus a v2 mount (systemd "hybrid"); controllers stay where v1 bound them. */
    HYBRID,
    /** No cgroup filesystem mounted at all. */
    NONE
}
