package dev.schedpolicy.engine.container;

import java.util.Map;

/** Where a placement learns the daemon's cgroup driver; {@link DriverQuery} asks the daemon itself. */
@FunctionalInterface
public interface CgroupDrivers {
    /**
     * @param env the environment the container command will run with
     * @throws ContainerRefusal when the driver cannot be told, saying why
     */
    CgroupDriver driverFor(ContainerCommand command, Map<String, String> env);
}
