package dev.adk4j.benchmarks.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jspecify.annotations.Nullable;

/**
 * Turns the JSON results of the comparison benchmarks ({@code -rf json}) into a PNG bar chart and a
 * markdown table of adk4j against adk-java, one row per benchmark and parameter set: time per
 * operation of each side, their ratio, bytes per operation of each side, their ratio.
 *
 * <p>Bytes per operation come from {@code -prof gc} ({@code gc.alloc.rate.norm}), except for
 * benchmarks that report {@code allocBytesPerOp} (see {@link AllocatedBytes}), whose iterations'
 * values are averaged here; those rows are marked with a dagger.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.compare.CompareReport \
 *     --png docs/benchmarks-vs-adk-java.png --md table.md [--title text] results.json...
 * </pre>
 *
 * Only java.awt, javax.imageio and Jackson (already on the benchmarks' classpath) are used; the
 * program runs headless.
 */
public final class CompareReport {

  /** One benchmark and parameter set, measured on both sides. */
  static final class Row {
    final String key;
    final String label;
    final Map<String, Side> sides = new LinkedHashMap<>();

    Row(String key, String label) {
      this.key = key;
      this.label = label;
    }

    @Nullable Side ours() {
      return sides.get(Workload.ADK4J);
    }

    @Nullable Side theirs() {
      return sides.get(Workload.ADK_JAVA);
    }

    boolean complete() {
      return ours() != null && theirs() != null;
    }

    double timeRatio() {
      return ours().nanos / theirs().nanos;
    }

    double bytesRatio() {
      return ours().bytes / theirs().bytes;
    }
  }

  /** One side's result: nanoseconds per operation (and its error), bytes per operation. */
  static final class Side {
    double nanos;
    double nanosError;
    double bytes = Double.NaN;
    boolean ownByteCounter;
  }

  private CompareReport() {}

  public static void main(String[] args) throws IOException {
    Path png = null;
    Path md = null;
    String title = "adk4j vs Google ADK for Java";
    String theirsLabel = "adk-java";
    String note = "";
    List<Path> inputs = new ArrayList<>();
    List<Path> theirs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--png":
          png = Path.of(args[++i]);
          break;
        case "--md":
          md = Path.of(args[++i]);
          break;
        case "--title":
          title = args[++i];
          break;
        case "--theirs":
          theirs.add(Path.of(args[++i]));
          break;
        case "--note":
          note = args[++i];
          break;
        case "--theirs-label":
          theirsLabel = args[++i];
          break;
        default:
          inputs.add(Path.of(args[i]));
      }
    }
    if (inputs.isEmpty() || (png == null && md == null)) {
      System.err.println(
          "usage: CompareReport [--png out.png] [--md out.md] [--title text] [--note text]"
              + " [--theirs variant.json]... [--theirs-label text] results.json...");
      System.exit(2);
    }
    Map<String, Row> rows = new LinkedHashMap<>();
    String jvm = "";
    ObjectMapper mapper = new ObjectMapper();
    for (Path input : inputs) {
      for (JsonNode result : mapper.readTree(input.toFile())) {
        jvm = result.path("vmName").asText() + " " + result.path("jdkVersion").asText();
        read(result, rows, null);
      }
    }
    // A variant run of adk-java (e.g. with other settings): its results replace adk-java's, and
    // only the rows it has are kept.
    if (!theirs.isEmpty()) {
      Map<String, Row> variant = new LinkedHashMap<>();
      for (Path input : theirs) {
        for (JsonNode result : mapper.readTree(input.toFile())) {
          read(result, variant, Workload.ADK_JAVA);
        }
      }
      Map<String, Row> merged = new LinkedHashMap<>();
      for (Row v : variant.values()) {
        Row base = rows.get(v.key);
        if (base != null && base.ours() != null) {
          v.sides.put(Workload.ADK4J, base.ours());
          merged.put(v.key, v);
        }
      }
      rows = merged;
    }
    List<Row> complete = new ArrayList<>();
    List<Row> all = new ArrayList<>(rows.values());
    all.sort(java.util.Comparator.comparingInt(r -> order(r.key)));
    for (Row r : all) {
      if (r.complete()) {
        complete.add(r);
      } else {
        System.err.println("only one side measured, left out: " + r.label);
      }
    }
    String machine =
        Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.arch")
            + ", "
            + jvm
            + (note.isEmpty() ? "" : "; " + note);
    String markdown = table(complete, theirsLabel);
    if (md != null) {
      Files.writeString(md, markdown, StandardCharsets.UTF_8);
    }
    System.out.print(markdown);
    if (png != null) {
      ImageIO.write(chart(complete, title, machine), "png", png.toFile());
      System.out.println("chart: " + png);
    }
  }

  /** Adds one JMH result to its row; with {@code only}, only that side's results. */
  static void read(JsonNode result, Map<String, Row> rows, @Nullable String only) {
    String benchmark = result.path("benchmark").asText();
    String shortName =
        benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
    String impl = null;
    StringBuilder params = new StringBuilder();
    for (Map.Entry<String, JsonNode> p : result.path("params").properties()) {
      if ("impl".equals(p.getKey())) {
        impl = p.getValue().asText();
      } else {
        params
            .append(params.length() == 0 ? "" : ", ")
            .append(p.getKey())
            .append('=')
            .append(p.getValue().asText());
      }
    }
    if (impl == null || (only != null && !only.equals(impl))) {
      return; // not a comparison, or not the side wanted
    }
    String key = shortName + " " + params;
    Row row = rows.computeIfAbsent(key, k -> new Row(k, label(shortName, params.toString())));
    Side side = new Side();
    JsonNode primary = result.path("primaryMetric");
    double perNano = nanosPer(primary.path("scoreUnit").asText());
    side.nanos = primary.path("score").asDouble() * perNano;
    side.nanosError = primary.path("scoreError").asDouble() * perNano;
    JsonNode secondary = result.path("secondaryMetrics");
    JsonNode own = secondary.path("allocBytesPerOp");
    if (!own.isMissingNode()) {
      double sum = 0;
      int n = 0;
      for (JsonNode fork : own.path("rawData")) {
        for (JsonNode v : fork) {
          sum += v.asDouble();
          n++;
        }
      }
      side.bytes = n == 0 ? Double.NaN : sum / n;
      side.ownByteCounter = true;
    } else if (!secondary.path("gc.alloc.rate.norm").isMissingNode()) {
      side.bytes = secondary.path("gc.alloc.rate.norm").path("score").asDouble();
    }
    row.sides.put(impl, side);
  }

  /** The order of the rows: the order, then anything else as read. */
  private static final List<String> ORDER =
      List.of(
          "AppendCompare.built ",
          "AppendCompare.prebuilt ",
          "GetSessionCompare.whole events=100",
          "GetSessionCompare.whole events=1000",
          "GetSessionCompare.whole events=10000",
          "GetSessionCompare.last10 events=100",
          "GetSessionCompare.last10 events=1000",
          "GetSessionCompare.last10 events=10000",
          "FillCompare.fill10000 ",
          "AppendAtCompare.append at=0",
          "AppendAtCompare.append at=10000",
          "TemplateCompare.render ",
          "TurnCompare.freshSession ",
          "TurnHistoryCompare.turn history=fresh",
          "TurnHistoryCompare.turn history=10turns",
          "TurnHistoryCompare.turn history=100events",
          "TurnHistoryCompare.turn history=1000events");

  static int order(String key) {
    int i = ORDER.indexOf(key);
    return i < 0 ? ORDER.size() : i;
  }

  /** A readable name for the comparison benchmarks; others keep their JMH name. */
  static String label(String shortName, String params) {
    String p = params.isEmpty() ? "" : " (" + params + ")";
    switch (shortName) {
      case "AppendCompare.built":
        return "appendEvent, event built in the op";
      case "AppendCompare.prebuilt":
        return "appendEvent, prebuilt event";
      case "GetSessionCompare.whole":
        return "getSession, all " + count(params, "events=") + " events";
      case "GetSessionCompare.last10":
        return "getSession, last 10 of " + count(params, "events=") + " events";
      case "FillCompare.fill10000":
        return "fill a session with 10,000 events (whole fill)";
      case "AppendAtCompare.append":
        return "one append, session at " + count(params, "at=") + " events";
      case "TemplateCompare.render":
        return "instruction with 10 placeholders";
      case "TurnCompare.freshSession":
        return "Runner turn, new session each (loop)";
      case "TurnHistoryCompare.turn":
        switch (params) {
          case "history=fresh":
            return "Runner turn, first of a session";
          case "history=10turns":
            return "Runner turn, after 10 turns";
          case "history=100events":
            return "Runner turn, 100 prior events";
          case "history=1000events":
            return "Runner turn, 1,000 prior events";
          default:
            return "Runner turn" + p;
        }
      default:
        return shortName + p;
    }
  }

  /** The number after {@code name} in {@code params}, with thousands separators. */
  static String count(String params, String name) {
    try {
      return String.format(Locale.ROOT, "%,d", Long.parseLong(params.replace(name, "")));
    } catch (NumberFormatException e) {
      return params;
    }
  }

  static double nanosPer(String unit) {
    switch (unit) {
      case "ns/op":
        return 1;
      case "us/op":
        return 1e3;
      case "ms/op":
        return 1e6;
      case "s/op":
        return 1e9;
      default:
        throw new IllegalArgumentException("not a time per operation: " + unit);
    }
  }

  static String time(double nanos) {
    if (Double.isNaN(nanos)) {
      return "?";
    }
    if (nanos < 1e3) {
      return String.format(Locale.ROOT, "%.0f ns", nanos);
    }
    if (nanos < 1e6) {
      return String.format(Locale.ROOT, "%s µs", sig(nanos / 1e3));
    }
    if (nanos < 1e9) {
      return String.format(Locale.ROOT, "%s ms", sig(nanos / 1e6));
    }
    return String.format(Locale.ROOT, "%s s", sig(nanos / 1e9));
  }

  /** Three significant digits. */
  static String sig(double v) {
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String bytes(double b) {
    if (Double.isNaN(b)) {
      return "n/a";
    }
    if (b < 1e4) {
      return String.format(Locale.ROOT, "%,.0f B", b);
    }
    if (b < 1e6) {
      return String.format(Locale.ROOT, "%s KB", sig(b / 1e3));
    }
    return String.format(Locale.ROOT, "%s MB", sig(b / 1e6));
  }

  static String ratio(double r) {
    if (Double.isNaN(r) || Double.isInfinite(r)) {
      return "n/a";
    }
    if (r >= 10) {
      return String.format(Locale.ROOT, "%.0f×", r);
    }
    if (r < 0.1) {
      // two significant digits
      return new java.math.BigDecimal(r).round(new java.math.MathContext(2)).toPlainString() + "×";
    }
    return sig(r) + "×";
  }

  static String timeWithError(Side s) {
    return Double.isNaN(s.nanosError) ? time(s.nanos) : time(s.nanos) + " ± " + time(s.nanosError);
  }

  static String table(List<Row> rows, String theirs) {
    StringBuilder sb = new StringBuilder();
    sb.append("| benchmark | adk4j | ")
        .append(theirs)
        .append(" | adk4j / adk-java | adk4j bytes/op | ")
        .append(theirs)
        .append(" bytes/op | adk4j / adk-java |\n");
    sb.append("| --- | --- | --- | --- | --- | --- | --- |\n");
    boolean dagger = false;
    for (Row r : rows) {
      Side o = r.ours();
      Side t = r.theirs();
      String mark = o.ownByteCounter || t.ownByteCounter ? " †" : "";
      dagger |= !mark.isEmpty();
      sb.append("| ")
          .append(r.label)
          .append(" | ")
          .append(timeWithError(o))
          .append(" | ")
          .append(timeWithError(t))
          .append(" | ")
          .append(ratio(r.timeRatio()))
          .append(" | ")
          .append(bytes(o.bytes))
          .append(mark)
          .append(" | ")
          .append(bytes(t.bytes))
          .append(mark)
          .append(" | ")
          .append(ratio(r.bytesRatio()))
          .append(" |\n");
    }
    sb.append("\nTime per operation, mean ± 99.9 % confidence half-width (JMH's score error);")
        .append(" ratio below 1: adk4j takes less. Bytes per operation from `-prof gc`")
        .append(" (`gc.alloc.rate.norm`, all threads)");
    if (dagger) {
      sb.append("; † from the benchmark's own all-threads counter (`allocBytesPerOp`), mean over")
          .append(" iterations, since these single-shot benchmarks refill a session before every")
          .append(" iteration");
    }
    sb.append(".\n");
    return sb.toString();
  }

  // --- The chart: two panels of log-scale bars, time ratio and bytes ratio. ---

  private static final Color OURS_BETTER = new Color(0x2E7D32);
  private static final Color OURS_WORSE = new Color(0xC62828);
  private static final Color GRID = new Color(0xDDDDDD);

  static BufferedImage chart(List<Row> rows, String title, String machine) {
    int labelWidth = 330;
    int panelWidth = 560;
    int gap = 90;
    int rowHeight = 34;
    int top = 110;
    int width = labelWidth + 2 * panelWidth + gap + 30;
    int height = top + rows.size() * rowHeight + 70;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
    g.drawString(title, 20, 30);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.drawString(
        "adk4j's time and bytes per operation divided by adk-java's, log scale: a bar left of 1"
            + " (green) means adk4j takes less, right of 1 (red) more.",
        20,
        52);
    g.drawString(machine, 20, 70);

    double minExp = -2;
    double maxExp = 2;
    for (Row r : rows) {
      for (double v : new double[] {r.timeRatio(), r.bytesRatio()}) {
        if (v > 0 && !Double.isInfinite(v)) {
          minExp = Math.min(minExp, Math.floor(Math.log10(v)));
          maxExp = Math.max(maxExp, Math.ceil(Math.log10(v)));
        }
      }
    }
    int x1 = labelWidth;
    int x2 = labelWidth + panelWidth + gap;
    panel(g, rows, x1, top, panelWidth, rowHeight, minExp, maxExp, true, "time per operation");
    panel(g, rows, x2, top, panelWidth, rowHeight, minExp, maxExp, false, "bytes per operation");
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    for (int i = 0; i < rows.size(); i++) {
      String label = rows.get(i).label;
      FontMetrics fm = g.getFontMetrics();
      g.drawString(label, labelWidth - 12 - fm.stringWidth(label), top + i * rowHeight + 22);
    }
    g.dispose();
    return image;
  }

  private static void panel(
      Graphics2D g,
      List<Row> rows,
      int x,
      int top,
      int w,
      int rowHeight,
      double minExp,
      double maxExp,
      boolean time,
      String name) {
    int h = rows.size() * rowHeight;
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.setColor(Color.BLACK);
    g.drawString(name + " (adk4j / adk-java)", x, top - 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    for (double e = minExp; e <= maxExp; e++) {
      int gx = xOf(Math.pow(10, e), x, w, minExp, maxExp);
      g.setColor(e == 0 ? Color.DARK_GRAY : GRID);
      g.setStroke(new BasicStroke(e == 0 ? 2f : 1f));
      g.drawLine(gx, top - 8, gx, top + h);
      g.setColor(Color.DARK_GRAY);
      String tick =
          e >= 0
              ? String.format(Locale.ROOT, "%.0f×", Math.pow(10, e))
              : "1/" + (long) Math.pow(10, -e) + "×";
      g.drawString(tick, gx - g.getFontMetrics().stringWidth(tick) / 2, top + h + 16);
    }
    int one = xOf(1, x, w, minExp, maxExp);
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      double v = time ? r.timeRatio() : r.bytesRatio();
      int y = top + i * rowHeight + 6;
      if (!(v > 0) || Double.isInfinite(v)) {
        g.setColor(Color.GRAY);
        g.drawString("n/a", one + 6, y + 16);
        continue;
      }
      int vx = xOf(v, x, w, minExp, maxExp);
      g.setColor(v <= 1 ? OURS_BETTER : OURS_WORSE);
      g.fillRect(Math.min(one, vx), y, Math.max(2, Math.abs(vx - one)), rowHeight - 12);
      Side o = r.ours();
      Side t = r.theirs();
      String text =
          ratio(v)
              + "  ("
              + (time
                  ? time(o.nanos) + " vs " + time(t.nanos)
                  : bytes(o.bytes) + " vs " + bytes(t.bytes))
              + ")";
      g.setColor(Color.BLACK);
      FontMetrics fm = g.getFontMetrics();
      int tx = v <= 1 ? one + 6 : one - 6 - fm.stringWidth(text);
      g.drawString(text, tx, y + 15);
    }
  }

  private static int xOf(double v, int x, int w, double minExp, double maxExp) {
    double f = (Math.log10(v) - minExp) / (maxExp - minExp);
    return x + (int) Math.round(f * w);
  }
}
