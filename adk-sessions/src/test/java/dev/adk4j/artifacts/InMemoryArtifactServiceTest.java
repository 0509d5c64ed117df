package dev.adk4j.artifacts;

/** {@link InMemoryArtifactService} against the artifact contract. */
class InMemoryArtifactServiceTest extends ArtifactServiceContract {

  @Override
  protected BaseArtifactService createService() {
    return new InMemoryArtifactService();
  }
}
