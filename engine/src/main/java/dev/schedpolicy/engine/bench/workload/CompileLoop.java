package dev.schedpolicy.engine.bench.workload;

import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Background load like a real build: {@code --threads N} compile loops, each running the JDK's own compiler
 * (javax.tools, in process) on a generated source tree of {@code --classes C} classes (generics, records,
 * lambdas, streams, switch expressions, cross-references), again and again, with a fresh compiler task every
 * round, so the load churns threads, memory, the GC and caches the way javac does. Sources and class files
 * stay in memory: a killed loop leaves nothing on disk. Every thread compiles a small tree once before the
 * first progress line, so the runner's window opens on a warmed-up compiler; then it prints
 * {@link Protocol#PROGRESS} with the classes generated so far (counted per class as javac writes it) every
 * 100 ms. Runs until killed; needs a JDK (jdk.compiler), not a bare JRE.
 */
public final class CompileLoop {
    static final int WARM_UP_CLASSES = 10;
    private CompileLoop() {
    }

    public static void main(final String[] argv) throws Exception {
        Args args = new Args(argv);
        int threads = (int) args.getLong("threads", 1);
        int classes = (int) args.getLong("classes", 60);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler in this runtime: the compile-loop workload needs a JDK");
        }
        List<JavaFileObject> sources = sources(classes);
        // a small tree warms the compiler up: with k spread copies starting at once, k full compiles would not
        List<JavaFileObject> warmUp = sources(Math.min(WARM_UP_CLASSES, classes));
        AtomicLongArray counts = new AtomicLongArray(threads * 16); // one cache line apart
        CountDownLatch warm = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int slot = t * 16;
            Thread th = new Thread(() -> {
                compile(javac, warmUp, () -> { });
                warm.countDown();
                while (true) {
                    compile(javac, sources, () -> counts.lazySet(slot, counts.get(slot) + 1));
                }
            }, "compile-" + t);
            th.setDaemon(true);
            th.start();
        }
        warm.await();
        while (true) {
            long total = 0;
            for (int t = 0; t < threads; t++) {
                total += counts.get(t * 16);
            }
            Protocol.progress(total);
            System.out.flush();
            Thread.sleep(100);
        }
    }

    private static void compile(final JavaCompiler javac, final List<JavaFileObject> sources, final Runnable perClass) {
        StandardJavaFileManager std = javac.getStandardFileManager(null, Locale.ROOT, null);
        ForwardingJavaFileManager<StandardJavaFileManager> discard = new ForwardingJavaFileManager<>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(final Location location, final String className,
                    final JavaFileObject.Kind kind, final FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return OutputStream.nullOutputStream();
                    }
                };
            }
        };
        JavacTask task = (JavacTask) javac.getTask(null, discard, d -> { }, List.of("-proc:none", "-g", "-Xlint:none"),
                null, sources);
        task.addTaskListener(new TaskListener() {
            @Override
            public void finished(final TaskEvent e) {
                if (e.getKind() == TaskEvent.Kind.GENERATE) {
                    perClass.run();
                }
            }
        });
        Boolean ok = task.call();
        if (!Boolean.TRUE.equals(ok)) {
            throw new IllegalStateException("the generated sources did not compile");
        }
    }

    static List<JavaFileObject> sources(final int classes) {
        List<JavaFileObject> out = new ArrayList<>();
        for (int i = 0; i < classes; i++) {
            String name = "C" + i;
            String code = source(i, classes);
            out.add(new SimpleJavaFileObject(URI.create("mem:///gen/" + name + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(final boolean ignoreEncodingErrors) {
                    return code;
                }
            });
        }
        return out;
    }

    /** One generated class; it refers to the previous one so the compiler resolves across the tree. */
    static String source(final int i, final int classes) {
        String prev = "C" + ((i + classes - 1) % classes);
        return """
                package gen;

                import java.util.*;
                import java.util.function.*;
                import java.util.stream.*;

                public final class C%1$d {
                    public record Item<T extends Comparable<T>>(T key, List<T> values) {
                        public Item {
                            values = List.copyOf(values);
                        }
                    }

                    public sealed interface Shape permits Circle, Square, Poly {}
                    public record Circle(double r) implements Shape {}
                    public record Square(double a) implements Shape {}
                    public record Poly(List<double[]> points) implements Shape {}

                    public static <T extends Comparable<T>> Map<T, List<T>> group(final List<Item<T>> items) {
                        return items.stream().collect(Collectors.groupingBy(Item::key, TreeMap::new,
                                Collectors.flatMapping(x -> x.values().stream().sorted(), Collectors.toList())));
                    }

                    public static double area(final Shape s) {
                        if (s instanceof Circle c) {
                            return Math.PI * c.r() * c.r();
                        } else if (s instanceof Square q) {
                            return q.a() * q.a();
                        }
                        return ((Poly) s).points().size();
                    }

                    public static String kind(final int x) {
                        return switch (x %% 5) {
                            case 0 -> "zero" + x;
                            case 1, 2 -> { String y = Integer.toHexString(x); yield y.toUpperCase(); }
                            default -> String.valueOf(%2$s.total(List.of(x, x + 1)));
                        };
                    }

                    public static long total(final List<Integer> xs) {
                        Function<Integer, Long> f = v -> (long) v * %1$d;
                        BiFunction<Long, Long, Long> add = Long::sum;
                        return xs.stream().map(f).reduce(0L, add::apply);
                    }

                    public static <K, V extends Comparable<? super V>> Optional<Map.Entry<K, V>> best(final Map<K, V> m) {
                        return m.entrySet().stream().max(Map.Entry.comparingByValue());
                    }

                    public static List<String> names(final Collection<? extends CharSequence> in) {
                        var out = new ArrayList<String>();
                        for (var s : in) {
                            out.add(new StringBuilder(s).reverse().toString().strip());
                        }
                        out.sort(Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
                        return Collections.unmodifiableList(out);
                    }
                }
                """.formatted(i, prev);
    }
}
