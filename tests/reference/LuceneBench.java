// The Lucene 8 peer of `npm run bench:bm25` (scripts/bench/bm25.ts compiles and runs it where
// `java` and Debian's liblucene8-java are installed; it is never needed by the tests).
//
//   java -Xmx990m -cp CLASSES:/usr/share/java/lucene-core-8.7.0.jar:/usr/share/java/lucene-analyzers-common-8.7.0.jar \
//     LuceneBench CORPUS.tsv QUERIES.txt INDEX_DIR OUT_TOP20.tsv
//
// CORPUS.tsv: `id \t title \t body` per line, the texts QPairs stores (tabs/newlines in the text
// written as spaces). QUERIES.txt: one id per line. Build = addDocument for every line + commit,
// on disk (MMapDirectory, the default 16 MB RAM buffer and merge policy), timed from the first
// addDocument to the end of commit; reading the file is not timed. Analyzer: StandardTokenizer →
// EnglishPossessiveFilter → LowerCaseFilter → StopFilter(the 33 English stop words), the chain
// of QPairs' default analyzer (LuceneReference.analyzer, compiled with this file). Query = the query question's title + body through the same analyzer,
// one SHOULD clause per distinct term boosted by its count (the same scores as one clause per
// occurrence), BM25Similarity() defaults (k1 1.2, b 0.75), IndexSearcher.search(q, 21) with its
// default collector (block-max WAND), the query's own document dropped from the hits → top 20.
// 50 warm-up queries first (cycling through the list), then every query timed once.
// Prints one JSON line: {"docs","buildSeconds","buildCpuSeconds","indexPerSec","queryMedianMs","queryP99Ms","peakRssMB","segments"}.
// buildCpuSeconds: the JVM's CPU time (all threads: JIT, GC, merges) from the first addDocument to the end
// of commit, reading the corpus file included.
// OUT_TOP20.tsv: `query \t hit1:score1 hit2:score2 … hit20:score20` per query.

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.MMapDirectory;

public class LuceneBench {
  static long peakRssKb() throws IOException {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
    return -1;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: LuceneBench CORPUS.tsv QUERIES.txt INDEX_DIR OUT_TOP20.tsv");
      System.exit(2);
    }
    Set<String> queryIds = new LinkedHashSet<>(Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8));
    queryIds.remove("");
    Map<String, String> queryText = new HashMap<>();
    Analyzer analyzer = LuceneReference.analyzer("lucene-standard-stop");
    IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
    cfg.setSimilarity(new BM25Similarity());
    cfg.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    MMapDirectory dir = new MMapDirectory(Paths.get(args[2]));
    long buildNanos = 0;
    int docs = 0;
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    try (IndexWriter w = new IndexWriter(dir, cfg);
        BufferedReader in = Files.newBufferedReader(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      String line;
      Document doc = new Document();
      StringField idField = new StringField("id", "", Field.Store.YES);
      TextField textField = new TextField("text", "", Field.Store.NO);
      doc.add(idField);
      doc.add(textField);
      while ((line = in.readLine()) != null) {
        int a = line.indexOf('\t');
        int b = line.indexOf('\t', a + 1);
        if (a < 0 || b < 0) continue;
        String id = line.substring(0, a);
        String text = line.substring(a + 1, b) + "\n" + line.substring(b + 1);
        if (queryIds.contains(id)) queryText.put(id, text);
        idField.setStringValue(id);
        textField.setStringValue(text);
        long t0 = System.nanoTime();
        w.addDocument(doc);
        buildNanos += System.nanoTime() - t0;
        docs++;
      }
      long t0 = System.nanoTime();
      w.commit();
      buildNanos += System.nanoTime() - t0;
    }
    double buildCpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;

    BooleanQuery.setMaxClauseCount(1 << 20);
    DirectoryReader reader = DirectoryReader.open(dir);
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new BM25Similarity());
    List<String> ids = new ArrayList<>();
    List<Query> queries = new ArrayList<>();
    for (String id : queryIds) {
      String text = queryText.get(id);
      if (text == null) continue;
      Map<String, Integer> tf = new LinkedHashMap<>();
      try (TokenStream ts = analyzer.tokenStream("text", text)) {
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) tf.merge(term.toString(), 1, Integer::sum);
        ts.end();
      }
      BooleanQuery.Builder qb = new BooleanQuery.Builder();
      for (Map.Entry<String, Integer> e : tf.entrySet()) {
        Query tq = new TermQuery(new Term("text", e.getKey()));
        qb.add(e.getValue() == 1 ? tq : new BoostQuery(tq, e.getValue()), BooleanClause.Occur.SHOULD);
      }
      ids.add(id);
      queries.add(qb.build());
    }
    for (int i = 0; i < 50 && !queries.isEmpty(); i++) searcher.search(queries.get(i % queries.size()), 21);
    double[] ms = new double[queries.size()];
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < queries.size(); i++) {
      long t0 = System.nanoTime();
      TopDocs top = searcher.search(queries.get(i), 21);
      ms[i] = (System.nanoTime() - t0) / 1e6;
      out.append(ids.get(i)).append('\t');
      int n = 0;
      for (ScoreDoc sd : top.scoreDocs) {
        String hit = searcher.doc(sd.doc).get("id");
        if (hit.equals(ids.get(i)) || n == 20) continue;
        out.append(n == 0 ? "" : " ").append(hit).append(':').append(sd.score);
        n++;
      }
      out.append('\n');
    }
    Files.write(Paths.get(args[3]), out.toString().getBytes(StandardCharsets.UTF_8));
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    double median = sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(0.5 * sorted.length) - 1)];
    double p99 = sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(0.99 * sorted.length) - 1)];
    double buildSeconds = buildNanos / 1e9;
    System.out.printf(Locale.ROOT,
        "{\"docs\":%d,\"buildSeconds\":%.3f,\"buildCpuSeconds\":%.3f,\"indexPerSec\":%.1f,\"queryMedianMs\":%.3f,\"queryP99Ms\":%.3f,\"peakRssMB\":%.1f,\"segments\":%d}%n",
        docs, buildSeconds, buildCpuSeconds, docs / buildSeconds, median, p99, peakRssKb() / 1024.0, reader.leaves().size());
    reader.close();
  }
}
