package io.github.avgateway.load.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merges due are read from the latest commit as the tiered merge policy would pick them. */
class MergeSettleTest {

  @TempDir Path index;

  @Test
  void manySmallSegmentsLeftUnmergedAreDueAndOneSegmentIsNot() throws Exception {
    try (Directory dir = FSDirectory.open(index);
        IndexWriter writer =
            new IndexWriter(
                dir,
                new IndexWriterConfig(new StandardAnalyzer())
                    .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int segment = 0; segment < 25; segment++) {
        Document doc = new Document();
        doc.add(new StringField("id", "doc-" + segment, Field.Store.YES));
        writer.addDocument(doc);
        writer.commit(); // one segment per commit: nothing merges them
      }
    }
    MergeSettle.Due unmerged = MergeSettle.due(index);
    assertThat(unmerged.segments()).isEqualTo(25);
    assertThat(unmerged.merges()).isPositive();
    assertThat(unmerged.bytes()).isPositive();

    try (Directory dir = FSDirectory.open(index);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      writer.forceMerge(1);
      writer.commit();
    }
    MergeSettle.Due merged = MergeSettle.due(index);
    assertThat(merged).isEqualTo(new MergeSettle.Due(1, 0, 0));
  }
}
