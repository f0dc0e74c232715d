package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plugin's words live in Messages.properties (through the localizer's generated {@code Messages}), so that a
 * translator or a reviewer finds them in one place: no console line, form check or choice, page or step name is spelled
 * out in the Java sources, and the words of the forms and the pages (build page, benchmark, measured launches, fleet
 * view) and the trend charts are keys of the .properties beside each view.
 */
class DisplayTextTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/schedpolicy/jenkins");
    private static final Path VIEWS = Path.of("src/main/resources/dev/schedpolicy/jenkins");

    @Test
    void shouldTakeEveryConsoleLineFromMessages() throws IOException {
        assertThat(matches(SOURCES, ".java", Pattern.compile("\"\\[schedpolicy\\][^\"]*\"")))
                .as("console lines written in Java instead of Messages.properties").isEmpty();
    }

    @Test
    void shouldFormatAConsoleLineAsBefore() {
        assertThat(Messages.Console_abortedWhileProbing("withSchedPolicy")).isEqualTo("[schedpolicy] withSchedPolicy: the build"
                + " was aborted while the agent probed the block's policy; the body did not run");
        assertThat(Messages.Console_line("")).isEqualTo("[schedpolicy] ");
    }

    @Test
    void shouldTakeFormChecksAndChoicesFromMessages() throws IOException {
        assertThat(matches(SOURCES, ".java", Pattern.compile("FormValidation\\.(ok|warning|error)\\(\"|\\.add\\(\"|threeWay\\(\"")))
                .as("form messages and choices written in Java instead of Messages.properties").isEmpty();
    }

    @Test
    void shouldKeepEveryFormLabelInThePropertiesBesideItsForm() throws IOException {
        assertThat(labelsNotBeside("config.jelly")).as("form labels without a key in the .properties beside the form").isEmpty();
    }

    @Test
    void shouldTakeEveryDisplayNameFromMessages() throws IOException {
        List<String> literal = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = Pattern.compile("String (getDisplayName|getDescription)\\(\\)\\s*\\{\\s*return \"")
                        .matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    literal.add(file.getFileName() + ": " + m.group(1));
                }
            }
        }
        assertThat(literal).as("names of pages, links, steps and forms written in Java").isEmpty();
    }

    @Test
    void shouldKeepThePageLabelsInThePropertiesBesideTheirViews() throws IOException {
        for (String viewName : List.of("summary.jelly", "index.jelly", "rows.jelly", "floatingBox.jelly")) {
            assertThat(labelsNotBeside(viewName)).as("page labels without a key beside the page").isEmpty();
        }
        // every view's words are keys: none written into the markup, none chosen by an expression
        for (String view : List.of("SchedPolicyAction/summary.jelly", "MeasureJobAction/floatingBox.jelly",
                "BenchmarkJobAction/floatingBox.jelly", "SchedPolicyConfiguration/config.jelly", "PolicyFields/config.jelly",
                "BenchmarkStep/config.jelly", "SchedPolicyNodeProperty/config.jelly", "WithSchedPolicyStep/config.jelly",
                "WithSchedGuardStep/config.jelly", "SchedPolicyWrapper/config.jelly", "FleetLink/index.jelly",
                "FleetAgentView/index.jelly", "BenchmarkViewModel/index.jelly", "BenchmarkBuildAction/summary.jelly",
                "MeasureBuildAction/summary.jelly", "MeasureBuildAction/rows.jelly", "MeasureBuildAction/index.jelly",
                "GuardBuildAction/summary.jelly", "YieldBuildAction/summary.jelly")) {
            assertThat(wordsWrittenInto(Files.readString(VIEWS.resolve(view), StandardCharsets.UTF_8)))
                    .as("words written into " + view).isEmpty();
        }
    }

    @Test
    void shouldFindTheWordsOfAViewThatAreNoKeys() {
        assertThat(wordsWrittenInto("<p>${%intro} <b>${s.nodes()}</b>nodes &#160;&amp;</p>")).containsExactly("nodes");
        assertThat(wordsWrittenInto("<span class=\"${a.online ? 'schedpolicy-yes' : 'schedpolicy-no'}\">${a.online ? 'online' : w}"))
                .containsExactly("online");
        assertThat(wordsWrittenInto("<style>td { vertical-align: top; }</style><!-- a comment --><b>${%title}</b>")).isEmpty();
    }

    /**
     * The page texts that the plugin's Java builds come from Messages too: no sentence is spelled out in the classes
     * that make the pages' text (a literal with a space and a word; comments aside).
     */
    @Test
    void shouldTakeThePagesTextsBuiltInJavaFromMessages() throws IOException {
        List<String> literal = new ArrayList<>();
        for (String page : List.of("FleetLink", "FleetView", "FleetAgentView", "FleetSnapshot", "NodeDefaults",
                "BenchmarkViewModel", "BenchmarkBuildAction", "MeasureBuildAction", "MeasurePage", "MeasureJobAction")) {
            String code = Files.readString(SOURCES.resolve(page + ".java"), StandardCharsets.UTF_8)
                    .replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)^\\s*//.*$", " ");
            Matcher m = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"").matcher(code);
            while (m.find()) {
                if (m.group().matches("(?s).*\\s.*") && m.group().matches("(?s).*[A-Za-z]{2,}.*")) {
                    literal.add(page + ": " + m.group());
                }
            }
        }
        assertThat(literal).as("page texts written in Java instead of Messages.properties").isEmpty();
    }

    /**
     * The words of a view outside ${%key}: its text between the tags, and the words that an expression chooses between
     * ({@code ${a.online ? 'online' : 'offline'}}; class names and the {@code selected} attribute aside). Comments, style
     * sheets and character references are no words.
     */
    static List<String> wordsWrittenInto(final String view) {
        List<String> words = new ArrayList<>();
        Matcher expression = Pattern.compile("\\$\\{[^}]*\\}").matcher(view);
        while (expression.find()) {
            Matcher chosen = Pattern.compile("[?:]\\s*'([^']*)'").matcher(expression.group());
            while (chosen.find()) {
                String word = chosen.group(1);
                if (word.matches(".*[A-Za-z]{2,}.*") && !word.matches("schedpolicy-[a-z-]+|selected")) {
                    words.add(word);
                }
            }
        }
        Matcher text = Pattern.compile("[A-Za-z]{2,}").matcher(view.replaceAll(
                "(?s)<!--.*?-->|<\\?.*?\\?>|<style>.*?</style>|<[^>]*>|\\$\\{[^}]*\\}|&#?[A-Za-z0-9]+;", " "));
        while (text.find()) {
            words.add(text.group());
        }
        return words;
    }

    /**
     * Each ${%key} of the views so named that is no plain key (letters, digits, dots) or has no entry in the .properties
     * of the same name beside the view: the text was in the view, where a translator does not look for it.
     */
    static List<String> labelsNotBeside(final String viewName) throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String label : matches(VIEWS, viewName, Pattern.compile("\\$\\{%[^}]*\\}"))) {
            String file = label.substring(0, label.indexOf(':'));
            String key = label.substring(label.indexOf("${%") + 3, label.lastIndexOf('}')).replaceAll("\\(.*", "");
            Path beside = VIEWS.resolve(file.replaceAll("\\.jelly$", ".properties"));
            java.util.Properties texts = new java.util.Properties();
            if (Files.exists(beside)) {
                try (var in = Files.newInputStream(beside)) {
                    texts.load(in);
                }
            }
            if (!key.matches("[A-Za-z][A-Za-z0-9.]*") || !texts.containsKey(key)) {
                wrong.add(label);
            }
        }
        return wrong;
    }

    /** FILE:LINE: TEXT of every match of the pattern in the files under root whose names end so. */
    static List<String> matches(final Path root, final String suffix, final Pattern pattern) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(suffix)).sorted().toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = pattern.matcher(lines.get(i));
                    while (m.find()) {
                        found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        return found;
    }
}
