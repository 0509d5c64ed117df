package dev.adk4j.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The memories a search found, oldest first. Immutable. */
public final class SearchMemoryResponse {

  private final List<MemoryEntry> memories;

  private SearchMemoryResponse(List<MemoryEntry> memories) {
    this.memories = List.copyOf(memories);
  }

  /** A builder, with no memories yet. */
  public static Builder builder() {
    return new Builder();
  }

  /** The memories found, oldest first; empty if none. */
  public List<MemoryEntry> memories() {
    return memories;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SearchMemoryResponse r && memories.equals(r.memories);
  }

  @Override
  public int hashCode() {
    return memories.hashCode();
  }

  @Override
  public String toString() {
    return "SearchMemoryResponse{memories=" + memories + "}";
  }

  /** Builds a {@link SearchMemoryResponse}. Not thread-safe. */
  public static final class Builder {
    private final List<MemoryEntry> memories = new ArrayList<>();

    private Builder() {}

    /** Replaces the memories with {@code memories}. */
    public Builder memories(List<MemoryEntry> memories) {
      Objects.requireNonNull(memories, "memories");
      this.memories.clear();
      memories.forEach(m -> this.memories.add(Objects.requireNonNull(m, "memory")));
      return this;
    }

    public SearchMemoryResponse build() {
      return new SearchMemoryResponse(memories);
    }
  }
}
