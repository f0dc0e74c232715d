package dev.schedpolicy.engine.report;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Mean of repeated measurements with the half-width of its 95% confidence interval (Student's t
 * over n-1 degrees of freedom; 0 when n is 1), plus the samples themselves.
 */
public record Stat(double mean, double ciHalfWidth, int n, double min, double max, List<Double> samples) {
    public Stat {
        samples = List.copyOf(samples);
    }

    public static Stat of(final List<Double> values) {
        List<Double> v = values.stream().filter(d -> d != null && Double.isFinite(d)).toList();
        int n = v.size();
        if (n == 0) {
            return new Stat(Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, List.of());
        }
        double mean = v.stream().mapToDouble(Double::doubleValue).sum() / n;
        double half = 0;
        if (n > 1) {
            double ss = v.stream().mapToDouble(d -> (d - mean) * (d - mean)).sum();
            double sd = Math.sqrt(ss / (n - 1));
            double t = new TDistribution(n - 1).inverseCumulativeProbability(0.975);
            half = t * sd / Math.sqrt(n);
        }
        double min = v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return new Stat(mean, half, n, min, max, v);
    }

    /** Like {@link #of} but null when there is no finite value, so JSON never carries NaN. */
    public static Stat orNull(final List<Double> values) {
        Stat s = of(values);
        return s.n == 0 ? null : s;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return n == 0;
    }
}
