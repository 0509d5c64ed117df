package dev.adk4j.benchmarks;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws a markdown table written by {@code devservers.sh} or {@code load.sh} as a PNG of horizontal
 * bars: one bar per row, the value of one numeric column, rows grouped by the values of other
 * columns (one group per model latency and endpoint, say), each group scaled to its own largest
 * value and each bar coloured by the framework its first cell names.
 *
 * <pre>
 * java -cp adk-benchmarks/target/benchmarks.jar dev.adk4j.benchmarks.TableChart \
 *     --table table.md --png chart.png --value 'turns/s' --group 'model latency,endpoint,users' \
 *     [--label 'server'] [--title text]
 * </pre>
 *
 * The first markdown table in the file is read: its header row names the columns; separator rows
 * ({@code | --- |}) are skipped; a bar's label is its row's {@code --label} cells (the first column
 * by default); a value cell's first number is its value (thousands separators ignored), and a row
 * whose value cell has none is left out. Only java.awt and javax.imageio are used; the program runs
 * headless.
 */
public final class TableChart {

  private TableChart() {}

  /** One row of the table: its cells by column name. */
  record Row(Map<String, String> cells) {}

  public static void main(String[] args) throws IOException {
    Path table = null;
    Path png = null;
    String value = null;
    List<String> group = List.of();
    List<String> label = List.of();
    String title = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--table" -> table = Path.of(args[++i]);
        case "--png" -> png = Path.of(args[++i]);
        case "--value" -> value = args[++i];
        case "--group" -> group = List.of(args[++i].split(","));
        case "--label" -> label = List.of(args[++i].split(","));
        case "--title" -> title = args[++i];
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    if (table == null || png == null || value == null) {
      throw new IllegalArgumentException(
          "usage: TableChart --table table.md --png chart.png --value column"
              + " [--group column,...] [--label column,...] [--title text]");
    }
    List<Row> rows = read(Files.readAllLines(table, StandardCharsets.UTF_8));
    draw(rows, value, group, label, title == null ? value : title, png);
  }

  /** The first markdown table in {@code lines}. */
  static List<Row> read(List<String> lines) {
    List<String> header = null;
    List<Row> rows = new ArrayList<>();
    for (String line : lines) {
      String t = line.trim();
      if (!t.startsWith("|")) {
        if (header != null) {
          break; // the table ended
        }
        continue;
      }
      List<String> cells = cells(t);
      if (header == null) {
        header = cells;
      } else if (!cells.isEmpty() && cells.get(0).matches("-+:?|:?-+:?")) {
        continue;
      } else {
        Map<String, String> byName = new LinkedHashMap<>();
        for (int i = 0; i < header.size() && i < cells.size(); i++) {
          byName.put(header.get(i), cells.get(i));
        }
        rows.add(new Row(byName));
      }
    }
    if (header == null) {
      throw new IllegalArgumentException("no markdown table found");
    }
    return rows;
  }

  private static List<String> cells(String line) {
    String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
    List<String> cells = new ArrayList<>();
    for (String c : inner.split("\\|", -1)) {
      cells.add(c.trim());
    }
    return cells;
  }

  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?");

  /**
   * The first number in the cell ({@code "1,422 ± 534 ops/s"} is 1422, {@code "(41 %)"} is 41), or
   * NaN when it has none (an empty cell, "failed").
   */
  static double number(String cell) {
    java.util.regex.Matcher m = NUMBER.matcher(cell);
    return m.find() ? Double.parseDouble(m.group().replace(",", "")) : Double.NaN;
  }

  static void draw(
      List<Row> rows, String value, List<String> group, List<String> label, String title, Path png)
      throws IOException {
    Map<String, List<Row>> groups = new LinkedHashMap<>();
    for (Row r : rows) {
      if (!r.cells().containsKey(value)) {
        throw new IllegalArgumentException("no column '" + value + "' in " + r.cells().keySet());
      }
      if (Double.isNaN(number(r.cells().get(value)))) {
        continue;
      }
      List<String> key = new ArrayList<>();
      for (String g : group) {
        key.add(g + " " + r.cells().getOrDefault(g, "?"));
      }
      groups.computeIfAbsent(String.join(", ", key), k -> new ArrayList<>()).add(r);
    }
    int rowHeight = 18;
    int lines = 0;
    for (List<Row> g : groups.values()) {
      lines += g.size() + 2;
    }
    int width = 1000;
    int height = 50 + lines * rowHeight;
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    g.drawString(title, 10, 22);
    int labelWidth = 330;
    int barMax = width - labelWidth - 90;
    int y = 50;
    List<String> labelColumns =
        !label.isEmpty() || rows.isEmpty()
            ? label
            : List.of(rows.get(0).cells().keySet().iterator().next());
    for (Map.Entry<String, List<Row>> e : groups.entrySet()) {
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
      g.setColor(Color.BLACK);
      g.drawString(e.getKey(), 10, y);
      y += rowHeight;
      double max = 0;
      for (Row r : e.getValue()) {
        max = Math.max(max, number(r.cells().get(value)));
      }
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      for (Row r : e.getValue()) {
        List<String> parts = new ArrayList<>();
        for (String c : labelColumns) {
          parts.add(r.cells().getOrDefault(c, "?"));
        }
        String text = String.join(", ", parts);
        double v = number(r.cells().get(value));
        g.setColor(Color.DARK_GRAY);
        g.drawString(text, 20, y);
        g.setColor(colour(text));
        int bar = max <= 0 ? 1 : (int) Math.max(1, Math.round(barMax * v / max));
        g.fillRect(labelWidth, y - 12, bar, 14);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "%,.1f", v), labelWidth + bar + 6, y);
        y += rowHeight;
      }
      y += rowHeight;
    }
    g.dispose();
    ImageIO.write(image, "png", png.toFile());
  }

  private static Color colour(String label) {
    String l = label.toLowerCase(Locale.ROOT);
    if (l.startsWith("adk4j") || l.startsWith("postgresql") || l.startsWith("sqlite")) {
      return new Color(0x2e7d32);
    }
    if (l.contains("javascript")) {
      return new Color(0xef6c00);
    }
    if (l.contains("java")) {
      return new Color(0x1565c0);
    }
    return new Color(0x6a1b9a);
  }
}
