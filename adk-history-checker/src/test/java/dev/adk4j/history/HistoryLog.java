package dev.adk4j.history;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A process's history file: one {@link Entry} per line, each written and flushed to the operating
 * system before the worker goes on (so a {@code kill -9} loses nothing written: the page cache
 * outlives the process). Reading tolerates a last line cut short by a kill.
 */
final class HistoryLog implements AutoCloseable {

  private final OutputStream out;

  HistoryLog(Path file) throws IOException {
    this.out = new FileOutputStream(file.toFile(), true);
  }

  synchronized void write(Entry e) {
    try {
      out.write((e.toJson() + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException x) {
      throw new UncheckedIOException("Cannot write the history", x);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  /** Every complete record of the files, in file order; a missing file holds none. */
  static List<Entry> read(List<Path> files) throws IOException {
    List<Entry> all = new ArrayList<>();
    for (Path f : files) {
      if (!Files.exists(f)) {
        continue; // its process was killed before it opened its history
      }
      try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
        String line;
        while ((line = in.readLine()) != null) {
          if (!line.isBlank() && line.endsWith("}")) {
            all.add(Entry.fromJson(line));
          }
        }
      }
    }
    return all;
  }
}
