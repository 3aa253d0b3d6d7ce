/*
 * Reference values from real Lucene 8 (Debian liblucene8-java) for QPairs' BM25 parity tests.
 * Compiled and run by lucene_fixtures.sh; its outputs are committed under tests/fixtures/lucene/.
 *
 *   java LuceneReference tokens ANALYZER IN.txt OUT.jsonl
 *       one JSON line per input line: {"text", "tokens": [[term, type], ...]}
 *       (input lines are texts; "\n" and "\t" written as backslash escapes are unescaped first)
 *   java LuceneReference search ANALYZER CORPUS.tsv QUERIES.txt K OUT.jsonl
 *       CORPUS.tsv: `qpairs corpus export W --format tsv` (id, title, body; backslash escapes),
 *       indexed in file order (docID = line order) as ONE field with two values, title and body;
 *       each query id's title + body (same analyzer) becomes a BooleanQuery of SHOULD TermQuery
 *       clauses, one per distinct term boosted by its count in the query; the query's own
 *       document is left out of its list. BM25Similarity(1.2, 0.75), Lucene's default norms.
 *       One JSON line per query: {"query": id, "hits": [[id, score], ...]} (score as a float).
 *   java LuceneReference smallfloat OUT.json
 *       {"byte4ToInt": [256 values], "intToByte4": [[length, byte], ...]}
 *   java LuceneReference codepoints OUT.tsv
 *       how StandardTokenizer treats every code point X (U+0000..U+3FFFF, U+E0000..U+E01EF; no
 *       surrogates, CR, LF) in six probes: "X", "aXb", "1X2", "aX", "Xa", "\u05d0X\u05d1"; each probe
 *       as its tokens' types and lengths ("AL3,NU1"); runs of code points that behave alike as
 *       one line: first (hex), last (hex), the six probes joined by "|"
 *
 * Analyzers (the names QPairs uses):
 *   lucene-standard       new StandardAnalyzer(): StandardTokenizer, LowerCaseFilter, StopFilter(empty set)
 *   lucene-standard-stop  StandardTokenizer, EnglishPossessiveFilter, LowerCaseFilter,
 *                         StopFilter(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET)
 *   lucene-english        new EnglishAnalyzer(): StandardTokenizer, EnglishPossessiveFilter,
 *                         LowerCaseFilter, StopFilter(ENGLISH_STOP_WORDS_SET), PorterStemFilter
 */
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.SmallFloat;

public class LuceneReference {
  static Analyzer analyzer(String name) {
    switch (name) {
      case "lucene-standard":
        return new StandardAnalyzer();
      case "lucene-english":
        return new EnglishAnalyzer();
      case "lucene-standard-stop":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer source = new StandardTokenizer();
            TokenStream result = new EnglishPossessiveFilter(source);
            result = new LowerCaseFilter(result);
            result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
            return new TokenStreamComponents(source, result);
          }
        };
      default:
        throw new IllegalArgumentException("unknown analyzer " + name);
    }
  }

  static String unescape(String s) {
    if (s.indexOf('\\') < 0) return s;
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char d = s.charAt(++i);
        b.append(d == 'n' ? '\n' : d == 't' ? '\t' : d == 'r' ? '\r' : d);
      } else b.append(c);
    }
    return b.toString();
  }

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static List<String[]> analyze(Analyzer a, String text) throws IOException {
    List<String[]> out = new ArrayList<>();
    try (TokenStream ts = a.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(new String[] {term.toString(), type.type()});
      ts.end();
    }
    return out;
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "tokens": tokens(analyzer(args[1]), Paths.get(args[2]), Paths.get(args[3])); break;
      case "search": search(analyzer(args[1]), Paths.get(args[2]), Paths.get(args[3]), Integer.parseInt(args[4]), Paths.get(args[5])); break;
      case "smallfloat": smallfloat(Paths.get(args[1])); break;
      case "codepoints": codepoints(Paths.get(args[1])); break;
      default: throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  static void tokens(Analyzer a, Path in, Path out) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
      for (String line : Files.readAllLines(in, StandardCharsets.UTF_8)) {
        String text = unescape(line);
        StringBuilder b = new StringBuilder("{\"text\":").append(json(text)).append(",\"tokens\":[");
        boolean first = true;
        for (String[] t : analyze(a, text)) {
          if (!first) b.append(',');
          first = false;
          b.append('[').append(json(t[0])).append(',').append(json(t[1])).append(']');
        }
        w.println(b.append("]}"));
      }
    }
  }

  static void search(Analyzer a, Path corpus, Path queries, int k, Path out) throws IOException {
    List<String> ids = new ArrayList<>();
    Map<String, Integer> docOf = new HashMap<>();
    List<String[]> texts = new ArrayList<>();
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(a).setSimilarity(new BM25Similarity(1.2f, 0.75f));
    cfg.setRAMBufferSizeMB(256);
    try (IndexWriter iw = new IndexWriter(dir, cfg); BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        String[] f = line.split("\t", -1);
        if (f.length != 3) throw new IOException("corpus line " + (ids.size() + 1) + ": expected id, title, body");
        String id = unescape(f[0]);
        String title = unescape(f[1]);
        String body = unescape(f[2]);
        Document d = new Document();
        d.add(new StringField("id", id, Field.Store.YES));
        d.add(new TextField("text", title, Field.Store.NO));
        d.add(new TextField("text", body, Field.Store.NO));
        docOf.put(id, ids.size());
        ids.add(id);
        texts.add(new String[] {title, body});
        iw.addDocument(d);
      }
      iw.forceMerge(1);
    }
    BooleanQuery.setMaxClauseCount(1 << 20);
    try (IndexReader reader = DirectoryReader.open(dir); PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
      IndexSearcher s = new IndexSearcher(reader);
      s.setSimilarity(new BM25Similarity(1.2f, 0.75f));
      for (String qid : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
        if (qid.isEmpty()) continue;
        Integer qdoc = docOf.get(qid);
        if (qdoc == null) throw new IOException("query " + qid + " is not in the corpus");
        String[] qt = texts.get(qdoc);
        LinkedHashMap<String, Integer> qtf = new LinkedHashMap<>();
        for (String part : qt) for (String[] t : analyze(a, part)) qtf.merge(t[0], 1, Integer::sum);
        BooleanQuery.Builder bq = new BooleanQuery.Builder();
        for (Map.Entry<String, Integer> e : qtf.entrySet()) {
          Query tq = new TermQuery(new Term("text", e.getKey()));
          if (e.getValue() > 1) tq = new BoostQuery(tq, e.getValue());
          bq.add(tq, BooleanClause.Occur.SHOULD);
        }
        // k + 1 and drop the query itself; exhaustive collection (no early termination).
        TopScoreDocCollector c = TopScoreDocCollector.create(k + 1, Integer.MAX_VALUE);
        s.search(bq.build(), c);
        StringBuilder b = new StringBuilder("{\"query\":").append(json(qid)).append(",\"hits\":[");
        int n = 0;
        for (ScoreDoc sd : c.topDocs().scoreDocs) {
          if (sd.doc == qdoc || n == k) continue;
          if (n++ > 0) b.append(',');
          b.append('[').append(json(ids.get(sd.doc))).append(',').append(Float.toString(sd.score)).append(']');
        }
        w.println(b.append("]}"));
      }
    }
  }

  static void smallfloat(Path out) throws IOException {
    StringBuilder b = new StringBuilder("{\"byte4ToInt\":[");
    for (int i = 0; i < 256; i++) b.append(i > 0 ? "," : "").append(SmallFloat.byte4ToInt((byte) i));
    b.append("],\"intToByte4\":[");
    int[] lens = {0, 1, 23, 24, 25, 39, 40, 41, 42, 43, 47, 48, 50, 60, 100, 128, 200, 255, 256, 1000, 4095, 65535, 100000, 1 << 24, Integer.MAX_VALUE};
    for (int i = 0; i < lens.length; i++) b.append(i > 0 ? "," : "").append('[').append(lens[i]).append(',').append(Byte.toUnsignedInt(SmallFloat.intToByte4(lens[i]))).append(']');
    Files.write(out, (b.append("]}\n").toString()).getBytes(StandardCharsets.UTF_8));
  }

  static String probe(Tokenizer t, String text) throws IOException {
    t.setReader(new StringReader(text));
    t.reset();
    CharTermAttribute term = t.addAttribute(CharTermAttribute.class);
    TypeAttribute type = t.addAttribute(TypeAttribute.class);
    StringBuilder b = new StringBuilder();
    while (t.incrementToken()) {
      if (b.length() > 0) b.append(',');
      b.append(type.type(), 1, 3).append(term.length());
    }
    t.end();
    t.close();
    return b.toString();
  }

  static void codepoints(Path out) throws IOException {
    StandardTokenizer t = new StandardTokenizer();
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
      String prev = null;
      int first = -1, last = -2;
      for (int cp = 0; cp <= 0xE01EF; cp++) {
        if ((cp >= 0xD800 && cp <= 0xDFFF) || (cp > 0x3FFFF && cp < 0xE0000) || cp == '\n' || cp == '\r') continue;
        String x = new String(Character.toChars(cp));
        String sig = probe(t, x) + "|" + probe(t, "a" + x + "b") + "|" + probe(t, "1" + x + "2") + "|" + probe(t, "a" + x) + "|" + probe(t, x + "a") + "|" + probe(t, "\u05d0" + x + "\u05d1");
        if (!sig.equals(prev) || cp != last + 1) {
          if (prev != null) w.println(Integer.toHexString(first) + "\t" + Integer.toHexString(last) + "\t" + prev);
          prev = sig;
          first = cp;
        }
        last = cp;
      }
      w.println(Integer.toHexString(first) + "\t" + Integer.toHexString(last) + "\t" + prev);
    }
  }
}
