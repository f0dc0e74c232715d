package dev.schedpolicy.engine.cgroup;

/** Version of one mounted cgroup hierarchy. */
public enum CgroupVersion {
    V1,
    V2
}
