/**
 * cgroup CPU controls for policed launches: find where the cpu controller lives (v1, v2 or hybrid, read from
 * mountinfo under a proc root so tests use fake trees), make a child group under a parent we may write,
 * apply quota/weight/idle, place processes (or on v1 single threads), read usage back and remove the group.
 *
 * <p>Entry point: {@link dev.schedpolicy.engine.cgroup.CgroupSystem#detect()}. Every failure is a
 * {@link dev.schedpolicy.engine.cgroup.CgroupException} naming the file, the operation and errno in words;
 * what this kernel or cgroup version cannot do at all is a
 * {@link dev.schedpolicy.engine.cgroup.CgroupUnsupportedException}.
 *
 * <p>Plain java.nio file I/O only: cgroupfs needs no syscalls beyond open/read/write/mkdir/rmdir.
 */
package dev.schedpolicy.engine.cgroup;
