import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drives a real headless Chromium over the DevTools protocol, as a user's browser: the live suite uses
 * it to submit Jenkins' own forms (the page's JavaScript builds the submitted JSON), to read what a page
 * shows after its scripts ran, and to take screenshots. JDK only (run as {@code java Browser.java}), so
 * the suite needs nothing but a JDK and Chromium.
 *
 * <pre>
 *   java Browser.java STEP...
 *     open URL          load URL and wait for its load event (and 1 s of scripts)
 *     eval JS           evaluate JS (a Promise is awaited) and print its value on one line
 *     submit JS         evaluate JS that navigates (e.g. clicks Save), wait for the next page's load
 *     wait JS           poll JS every 200 ms until it is truthy (at most 20 s)
 *     shot FILE.png     full-page screenshot, 1280 px wide
 * </pre>
 * Exit status 0, or 1 with one line on stderr saying which step failed and why.
 */
public final class Browser {
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newHttpClient();
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final Map<Integer, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private WebSocket socket;

    public static void main(final String[] args) throws Exception {
        Path profile = Files.createTempDirectory("schedpolicy-browser");
        ProcessBuilder launch = new ProcessBuilder(chromiumBinary(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--window-size=1280,900", "--user-data-dir=" + profile, "--remote-debugging-port=0",
                "about:blank").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        // Chromium makes an org.chromium.Chromium.XXXXXX directory in TMPDIR and leaves it when stopped: inside the profile
        launch.environment().put("TMPDIR", Files.createDirectory(profile.resolve("tmp")).toString());
        Process chromium = launch.start();
        int status = 1;
        try {
            Browser browser = new Browser();
            browser.connect(profile);
            status = browser.run(args);
        } catch (StepFailure e) {
            System.err.println("browser: " + e.getMessage());
        } finally {
            // Chromium's helpers (zygote, renderers, crashpad) outlive the main process and go on writing into the
            // profile: stop the whole tree before removing it, or a schedpolicy-browser* directory stays in /tmp
            List<ProcessHandle> tree = new java.util.ArrayList<>(chromium.descendants().toList());
            tree.add(chromium.toHandle());
            tree.forEach(ProcessHandle::destroy);
            for (ProcessHandle p : tree) {
                try {
                    p.onExit().get(5, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    p.destroyForcibly();
                }
            }
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(status);
    }

    private static String chromiumBinary() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new StepFailure("no chromium found (/usr/bin/chromium, chromium-browser or google-chrome)");
    }

    private void connect(final Path profile) throws Exception {
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(portFile) || Files.readAllLines(portFile).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new StepFailure("chromium did not open its DevTools port in 30 s");
            }
            Thread.sleep(100);
        }
        String port = Files.readAllLines(portFile).get(0).trim();
        String targets = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher page = Pattern.compile("\"type\":\\s*\"page\"[^}]*?\"webSocketDebuggerUrl\":\\s*\"([^\"]+)\"").matcher(targets);
        Matcher anyPage = Pattern.compile("\"webSocketDebuggerUrl\":\\s*\"(ws://[^\"]+/page/[^\"]+)\"").matcher(targets);
        String url = page.find() ? page.group(1) : anyPage.find() ? anyPage.group(1) : null;
        if (url == null) {
            throw new StepFailure("chromium lists no page target: " + targets);
        }
        socket = http.newWebSocketBuilder().buildAsync(URI.create(url), new Listener()).get(30, TimeUnit.SECONDS);
        call("Page.enable", "{}");
        call("Runtime.enable", "{}");
        call("Emulation.setDeviceMetricsOverride", "{\"width\":1280,\"height\":900,\"deviceScaleFactor\":1,\"mobile\":false}");
    }

    private int run(final String[] args) throws Exception {
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new StepFailure("step '" + args[i] + "' needs an argument");
            }
            String verb = args[i];
            String arg = args[i + 1];
            switch (verb) {
                case "open" -> navigate(() -> call("Page.navigate", "{\"url\":" + quote(arg) + "}"), arg);
                case "eval" -> System.out.println(evaluate(arg));
                case "submit" -> navigate(() -> evaluate(arg), verb + " " + arg);
                case "wait" -> waitFor(arg);
                case "shot" -> screenshot(Path.of(arg));
                default -> throw new StepFailure("unknown step '" + verb + "' (allowed: open, eval, submit, wait, shot)");
            }
        }
        return 0;
    }

    private interface Action {
        void run() throws Exception;
    }

    private void navigate(final Action action, final String what) throws Exception {
        events.clear();
        action.run();
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (true) {
            String event = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new StepFailure("no page load within " + STEP_TIMEOUT.toSeconds() + " s after: " + what);
            }
            if (event.contains("\"Page.loadEventFired\"")) {
                break;
            }
        }
        Thread.sleep(1000); // Jenkins pages finish building forms and charts in scripts after the load event
    }

    private void waitFor(final String js) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String value = evaluate("Boolean(" + js + ")");
            if ("true".equals(value)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new StepFailure("still false after 20 s: " + js);
    }

    private String evaluate(final String js) throws Exception {
        String reply = call("Runtime.evaluate", "{\"expression\":" + quote(js) + ",\"awaitPromise\":true,\"returnByValue\":true}");
        if (reply.contains("\"exceptionDetails\"")) {
            throw new StepFailure("script failed: " + js + " -> " + reply);
        }
        Matcher value = Pattern.compile("\"value\":(\"(?:[^\"\\\\]++|\\\\.)*+\"|true|false|null|-?[0-9.eE+-]+)").matcher(reply);
        if (!value.find()) {
            return "undefined";
        }
        String raw = value.group(1);
        return raw.startsWith("\"") ? unquote(raw) : raw;
    }

    private void screenshot(final Path file) throws Exception {
        String metrics = call("Page.getLayoutMetrics", "{}");
        Matcher height = Pattern.compile("\"cssContentSize\":\\{[^}]*\"height\":([0-9.]+)").matcher(metrics);
        int h = height.find() ? (int) Math.ceil(Double.parseDouble(height.group(1))) : 900;
        h = Math.max(300, Math.min(h, 6000));
        String reply = call("Page.captureScreenshot", "{\"format\":\"png\",\"captureBeyondViewport\":true,"
                + "\"clip\":{\"x\":0,\"y\":0,\"width\":1280,\"height\":" + h + ",\"scale\":1}}");
        Matcher data = Pattern.compile("\"data\":\"([^\"]+)\"").matcher(reply);
        if (!data.find()) {
            throw new StepFailure("no screenshot data: " + reply);
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(data.group(1)));
    }

    private String call(final String method, final String params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<String> reply = new CompletableFuture<>();
        pending.put(id, reply);
        socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true).join();
        String answer;
        try {
            answer = reply.get(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new StepFailure(method + " got no answer in " + STEP_TIMEOUT.toSeconds() + " s");
        }
        if (answer.startsWith("{\"id\":" + id + ",\"error\"")) {
            throw new StepFailure(method + " failed: " + answer);
        }
        return answer;
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();

        @Override
        public CompletionStage<?> onText(final WebSocket webSocket, final CharSequence data, final boolean last) {
            buffer.append(data);
            if (last) {
                String message = buffer.toString();
                buffer.setLength(0);
                Matcher id = Pattern.compile("^\\{\"id\":(\\d+),").matcher(message);
                if (id.find()) {
                    CompletableFuture<String> reply = pending.remove(Integer.parseInt(id.group(1)));
                    if (reply != null) {
                        reply.complete(message);
                    }
                } else {
                    events.add(message);
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    private static String quote(final String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String unquote(final String quoted) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < quoted.length() - 1; i++) {
            char c = quoted.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = quoted.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(quoted.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }

    private static final class StepFailure extends RuntimeException {
        StepFailure(final String message) {
            super(message);
        }
    }
}
