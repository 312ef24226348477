package io.github.avgateway.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The history configset shipped in this module's resources ({@code
 * solr/configsets/avgateway/conf}): an explicit schema and a solrconfig, nothing else.
 */
public final class HistoryConfigset {

  /**
   * The version of the history schema: documents of one version cannot be written into a core or
   * collection made with another (fields differ in how they are indexed).
   */
  public static final int SCHEMA_VERSION = 2;

  /**
   * The name the configset is installed under in Solr; it carries the schema version, so that a
   * cluster holding an earlier version's configset gets this one beside it.
   */
  public static final String NAME = "avgateway-history-" + SCHEMA_VERSION;

  static final List<String> FILES = List.of("schema.xml", "solrconfig.xml");
  private static final String RESOURCE_DIR = "/solr/configsets/avgateway/conf/";

  private HistoryConfigset() {}

  /** Writes the configset files into {@code confDir}, replacing older versions of them. */
  public static void copyTo(Path confDir) {
    try {
      Files.createDirectories(confDir);
      for (String file : FILES) {
        Files.write(confDir.resolve(file), read(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot install the history configset in " + confDir, e);
    }
  }

  /** The configset as a zip with the files at its root, as the ConfigSet upload API expects. */
  static byte[] zip() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String file : FILES) {
        zip.putNextEntry(new ZipEntry(file));
        zip.write(read(file));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot zip the history configset", e);
    }
    return bytes.toByteArray();
  }

  static byte[] read(String file) throws IOException {
    try (InputStream in = HistoryConfigset.class.getResourceAsStream(RESOURCE_DIR + file)) {
      if (in == null) {
        throw new IOException("missing resource " + RESOURCE_DIR + file);
      }
      return in.readAllBytes();
    }
  }
}
