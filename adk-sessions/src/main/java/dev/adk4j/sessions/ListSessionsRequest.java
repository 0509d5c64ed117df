package dev.adk4j.sessions;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which page of a user's sessions {@code listSessions(app, user, request)} returns (adk4j): at most
 * {@link #pageSize()} sessions, most recently updated first, starting after the position a {@link
 * #pageToken()} from the previous page's {@link ListSessionsResponse#nextPageToken()} marks (no
 * token: the first page). Immutable.
 */
public final class ListSessionsRequest {

  /** The page size when none is set: 100. */
  public static final int DEFAULT_PAGE_SIZE = 100;

  /** The largest page size accepted: 1000. */
  public static final int MAX_PAGE_SIZE = 1000;

  private static final ListSessionsRequest FIRST_PAGE = builder().build();

  private final int pageSize;
  private final @Nullable String pageToken;

  private ListSessionsRequest(Builder b) {
    this.pageSize = b.pageSize;
    this.pageToken = b.pageToken;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The first page at the default size. */
  public static ListSessionsRequest firstPage() {
    return FIRST_PAGE;
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.pageSize = pageSize;
    b.pageToken = pageToken;
    return b;
  }

  /** Sessions per page, 1 to {@value #MAX_PAGE_SIZE}; default {@value #DEFAULT_PAGE_SIZE}. */
  public int pageSize() {
    return pageSize;
  }

  /** Where the page starts: a previous response's token; empty for the first page. */
  public Optional<String> pageToken() {
    return Optional.ofNullable(pageToken);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ListSessionsRequest
        && pageSize == ((ListSessionsRequest) o).pageSize
        && Objects.equals(pageToken, ((ListSessionsRequest) o).pageToken);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pageSize, pageToken);
  }

  @Override
  public String toString() {
    return "ListSessionsRequest{pageSize=" + pageSize + ", pageToken=" + pageToken + "}";
  }

  /** Builds a {@link ListSessionsRequest}. Not thread-safe. */
  public static final class Builder {
    private int pageSize = DEFAULT_PAGE_SIZE;
    private @Nullable String pageToken;

    private Builder() {}

    /**
     * Sessions per page.
     *
     * @throws IllegalArgumentException unless {@code 1 <= pageSize <= 1000}
     */
    public Builder pageSize(int pageSize) {
      this.pageSize = Paging.checkPageSize(pageSize);
      return this;
    }

    /**
     * Starts the page after the previous one: pass the previous response's {@link
     * ListSessionsResponse#nextPageToken()}. Null or empty asks for the first page. The token is
     * opaque; a malformed one makes {@code listSessions} fail with an {@link
     * IllegalArgumentException}.
     */
    public Builder pageToken(@Nullable String pageToken) {
      this.pageToken = pageToken == null || pageToken.isEmpty() ? null : pageToken;
      return this;
    }

    public ListSessionsRequest build() {
      return new ListSessionsRequest(this);
    }
  }
}
