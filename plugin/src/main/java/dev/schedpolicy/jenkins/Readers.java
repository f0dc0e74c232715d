package dev.schedpolicy.jenkins;

import hudson.model.Job;
import jenkins.model.Jenkins;
import org.springframework.security.access.AccessDeniedException;

/**
 * What the viewer of a page or {@code api/json} may read, asked of Jenkins under the viewer's own authentication on
 * each request: nothing about it is kept between requests, so no viewer is ever answered with another's permissions.
 */
final class Readers {
    private Readers() {
    }

    /** Whether the current viewer may read the job of this full name (Item.READ along its folders); false when it is gone. */
    static boolean mayRead(final String fullName) {
        try {
            return Jenkins.get().getItemByFullName(fullName, Job.class) != null;
        } catch (AccessDeniedException e) {
            // Item.DISCOVER without Item.READ: the job exists, but its builds are not the viewer's to see
            return false;
        }
    }
}
