package dev.adk4j.sessions;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which page of a session's events {@code listEvents(app, user, id, request)} returns (adk4j): at
 * most {@link #pageSize()} events, oldest first or, with {@link #newestFirst()}, newest first,
 * starting after the position a {@link #pageToken()} from the previous page's {@link
 * ListEventsResponse#nextPageToken()} marks (no token: the first page). Immutable.
 */
public final class ListEventsRequest {

  /** The page size when none is set: 100. */
  public static final int DEFAULT_PAGE_SIZE = 100;

  /** The largest page size accepted: 1000. */
  public static final int MAX_PAGE_SIZE = 1000;

  private final int pageSize;
  private final @Nullable String pageToken;
  private final boolean newestFirst;

  private ListEventsRequest(Builder b) {
    this.pageSize = b.pageSize;
    this.pageToken = b.pageToken;
    this.newestFirst = b.newestFirst;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.pageSize = pageSize;
    b.pageToken = pageToken;
    b.newestFirst = newestFirst;
    return b;
  }

  /** Events per page, 1 to {@value #MAX_PAGE_SIZE}; default {@value #DEFAULT_PAGE_SIZE}. */
  public int pageSize() {
    return pageSize;
  }

  /** Where the page starts: a previous response's token; empty for the first page. */
  public Optional<String> pageToken() {
    return Optional.ofNullable(pageToken);
  }

  /** Whether pages run from the newest event back; default false (oldest first). */
  public boolean newestFirst() {
    return newestFirst;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ListEventsRequest)) {
      return false;
    }
    ListEventsRequest that = (ListEventsRequest) o;
    return pageSize == that.pageSize
        && newestFirst == that.newestFirst
        && Objects.equals(pageToken, that.pageToken);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pageSize, pageToken, newestFirst);
  }

  @Override
  public String toString() {
    return "ListEventsRequest{pageSize="
        + pageSize
        + ", pageToken="
        + pageToken
        + ", newestFirst="
        + newestFirst
        + "}";
  }

  /** Builds a {@link ListEventsRequest}. Not thread-safe. */
  public static final class Builder {
    private int pageSize = DEFAULT_PAGE_SIZE;
    private @Nullable String pageToken;
    private boolean newestFirst;

    private Builder() {}

    /**
     * Events per page.
     *
     * @throws IllegalArgumentException unless {@code 1 <= pageSize <= 1000}
     */
    public Builder pageSize(int pageSize) {
      this.pageSize = Paging.checkPageSize(pageSize);
      return this;
    }

    /**
     * Starts the page after the previous one: pass the previous response's {@link
     * ListEventsResponse#nextPageToken()}, with the same {@link #newestFirst(boolean)}. Null or
     * empty asks for the first page. The token is opaque; a malformed one, or one from a listing in
     * the other order, makes {@code listEvents} fail with an {@link IllegalArgumentException}.
     */
    public Builder pageToken(@Nullable String pageToken) {
      this.pageToken = pageToken == null || pageToken.isEmpty() ? null : pageToken;
      return this;
    }

    /** Newest event first (true) or oldest first (false, the default). */
    public Builder newestFirst(boolean newestFirst) {
      this.newestFirst = newestFirst;
      return this;
    }

    public ListEventsRequest build() {
      return new ListEventsRequest(this);
    }
  }
}
