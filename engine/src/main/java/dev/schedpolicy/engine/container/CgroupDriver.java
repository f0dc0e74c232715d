package dev.schedpolicy.engine.container;

/**
 * How the runtime's daemon makes container cgroups: as directories under a path ({@code cgroupfs}), or as
 * systemd scopes inside a slice ({@code systemd}), where --cgroup-parent must name a slice ("x.slice").
 */
public enum CgroupDriver {
    CGROUPFS, SYSTEMD
}
