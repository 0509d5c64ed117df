package dev.adk4j.benchmarks.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Turns the JSON results of {@link PeerTurnCompare} and {@link PeerHistoryCompare} ({@code -rf
 * json}) into a markdown table per case (fresh conversation; a given number of prior messages) and
 * one PNG bar chart of time per turn: each setup's time and bytes per turn, and both as a multiple
 * of adk4j's on the same store.
 *
 * <pre>
 * java -cp peers.jar dev.adk4j.benchmarks.peers.PeerReport --md table.md --png chart.png \
 *     [--title text] results.json...
 * </pre>
 */
public final class PeerReport {

  /** One setup in one case. */
  static final class Result {
    final String setup;

    /** The median of every measured iteration of every fork: what the tables rank by. */
    final double micros;

    final double mean;
    final double error;
    final double bytes;

    Result(String setup, double micros, double mean, double error, double bytes) {
      this.setup = setup;
      this.micros = micros;
      this.mean = mean;
      this.error = error;
      this.bytes = bytes;
    }
  }

  /**
   * The median of JMH's raw data (forks × iterations). A 1-second iteration here is either a steady
   * run of turns or one that met a collection or a descheduled thread; the mean of five such
   * iterations swings with a single outlier, the median does not.
   */
  static double median(JsonNode rawData) {
    List<Double> values = new ArrayList<>();
    for (JsonNode fork : rawData) {
      for (JsonNode v : fork) {
        values.add(v.asDouble());
      }
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    values.sort(Double::compare);
    int n = values.size();
    return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
  }

  public static void main(String[] args) throws IOException {
    Path md = null;
    Path png = null;
    String title = "Framework overhead per turn";
    List<Path> inputs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--md":
          md = Path.of(args[++i]);
          break;
        case "--png":
          png = Path.of(args[++i]);
          break;
        case "--title":
          title = args[++i];
          break;
        default:
          inputs.add(Path.of(args[i]));
      }
    }
    Map<String, List<Result>> cases = read(inputs);
    String table = markdown(cases);
    if (md != null) {
      Files.writeString(md, table, StandardCharsets.UTF_8);
    }
    System.out.print(table);
    if (png != null) {
      chart(cases, title, png);
    }
  }

  /** Case name (in reading order) to its results. */
  static Map<String, List<Result>> read(List<Path> inputs) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, List<Result>> cases = new LinkedHashMap<>();
    for (Path input : inputs) {
      for (JsonNode run : json.readTree(input.toFile())) {
        String benchmark = run.get("benchmark").asText();
        JsonNode params = run.path("params");
        String setup = params.path("setup").asText();
        String name;
        if (benchmark.endsWith("freshConversation")) {
          name = "fresh conversation, loop (-prof gc)";
        } else {
          int prior = params.path("prior").asInt();
          name = prior == 0 ? "first turn (single shots)" : prior + " prior messages";
        }
        JsonNode primary = run.get("primaryMetric");
        double mean = primary.get("score").asDouble();
        double error = primary.get("scoreError").asDouble();
        if (Double.isNaN(error)) {
          error = 0;
        }
        double micros = median(primary.get("rawData"));
        double bytes = Double.NaN;
        JsonNode secondary = run.path("secondaryMetrics");
        if (secondary.has("gc.alloc.rate.norm")) {
          bytes = secondary.get("gc.alloc.rate.norm").get("score").asDouble();
        } else if (secondary.has("allocBytesPerOp")) {
          double sum = 0;
          int n = 0;
          for (JsonNode fork : secondary.get("allocBytesPerOp").get("rawData")) {
            for (JsonNode v : fork) {
              sum += v.asDouble();
              n++;
            }
          }
          bytes = n == 0 ? Double.NaN : sum / n;
        }
        cases
            .computeIfAbsent(name, k -> new ArrayList<>())
            .add(new Result(setup, micros, mean, error, bytes));
      }
    }
    return cases;
  }

  static String markdown(Map<String, List<Result>> cases) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, List<Result>> c : cases.entrySet()) {
      out.append("\n**").append(c.getKey()).append("**\n\n");
      out.append(
          "| setup | µs per turn (median) | mean ± 99.9 % | × adk4j (medians) | bytes per turn |"
              + " × adk4j |\n");
      out.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
      List<Result> sorted = new ArrayList<>(c.getValue());
      sorted.sort((a, b) -> Double.compare(a.micros, b.micros));
      for (Result r : sorted) {
        Result base = adk4j(c.getValue(), r.setup);
        out.append("| ")
            .append(r.setup)
            .append(" | ")
            .append(String.format(Locale.ROOT, "%,.1f", r.micros))
            .append(" | ")
            .append(String.format(Locale.ROOT, "%,.1f ± %,.1f", r.mean, r.error))
            .append(" | ")
            .append(base == null ? "" : String.format(Locale.ROOT, "%.2f", r.micros / base.micros))
            .append(" | ")
            .append(Double.isNaN(r.bytes) ? "" : String.format(Locale.ROOT, "%,.0f", r.bytes))
            .append(" | ")
            .append(
                base == null || Double.isNaN(r.bytes)
                    ? ""
                    : String.format(Locale.ROOT, "%.2f", r.bytes / base.bytes))
            .append(" |\n");
      }
    }
    return out.toString();
  }

  /** adk4j's result on the setup's store, if measured. */
  static Result adk4j(List<Result> results, String setup) {
    int slash = setup.indexOf('/');
    String want = PeerWorkload.ADK4J + (slash < 0 ? "" : setup.substring(slash));
    for (Result r : results) {
      if (r.setup.equals(want)) {
        return r;
      }
    }
    return null;
  }

  /** Horizontal bars, one group per case, log-free (each group scaled to its own maximum). */
  static void chart(Map<String, List<Result>> cases, String title, Path png) throws IOException {
    int rows = 0;
    for (List<Result> r : cases.values()) {
      rows += r.size() + 2;
    }
    int width = 900;
    int rowHeight = 18;
    int height = 50 + rows * rowHeight;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title + " (µs per turn, shorter is better)", 10, 22);
    int y = 50;
    int labelWidth = 190;
    int barMax = width - labelWidth - 140;
    for (Map.Entry<String, List<Result>> c : cases.entrySet()) {
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
      g.setColor(Color.BLACK);
      g.drawString(c.getKey(), 10, y);
      y += rowHeight;
      double max = 0;
      for (Result r : c.getValue()) {
        max = Math.max(max, r.micros);
      }
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      for (Iterator<Result> it = c.getValue().iterator(); it.hasNext(); ) {
        Result r = it.next();
        g.setColor(Color.DARK_GRAY);
        g.drawString(r.setup, 20, y);
        g.setColor(colour(r.setup));
        int bar = (int) Math.max(1, Math.round(barMax * r.micros / max));
        g.fillRect(labelWidth, y - 12, bar, 14);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "%,.1f", r.micros), labelWidth + bar + 6, y);
        y += rowHeight;
      }
      y += rowHeight;
    }
    g.dispose();
    ImageIO.write(image, "png", png.toFile());
  }

  private static Color colour(String setup) {
    if (setup.startsWith(PeerWorkload.ADK4J)) {
      return new Color(0x2e7d32);
    }
    if (setup.startsWith(PeerWorkload.ADK_JAVA)) {
      return new Color(0x1565c0);
    }
    if (setup.startsWith(PeerWorkload.LANGCHAIN4J)) {
      return new Color(0x6a1b9a);
    }
    return new Color(0xef6c00);
  }
}
