package dev.schedpolicy.engine.jna;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/** The libc functions we bind. Interface mapping, because direct mapping has no varargs for syscall(2). */
interface LibC extends Library {
    NativeLong syscall(NativeLong number, Object... args) throws LastErrorException;

    int setpriority(int which, int who, int prio) throws LastErrorException;

    int sched_setaffinity(int pid, NativeLong cpusetsize, byte[] mask) throws LastErrorException;

    int sched_getaffinity(int pid, NativeLong cpusetsize, byte[] mask) throws LastErrorException;

    int kill(int pid, int sig) throws LastErrorException;

    int mkfifo(String path, int mode) throws LastErrorException;

    int geteuid();

    int pthread_sigmask(int how, Pointer set, Pointer oldset);

    int sigaction(int signum, Pointer act, Pointer oldact) throws LastErrorException;
}
