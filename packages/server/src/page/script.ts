/**
 * The page's behaviour, plain browser JavaScript (no build step, no dependencies). It is
 * kept in a raw string: it must not contain a backtick or a dollar-brace, so backticks
 * are written as \x60.
 */
export const PAGE_SCRIPT = String.raw`'use strict';
(function () {
  var form = document.getElementById('search-form');
  var queryInput = document.getElementById('query');
  var kInput = document.getElementById('k');
  var globsInput = document.getElementById('globs');
  var answerButton = document.getElementById('answer-button');
  var statusEl = document.getElementById('status');
  var resultsEl = document.getElementById('results');
  var answerSection = document.getElementById('answer');
  var answerText = document.getElementById('answer-text');
  var answerMeta = document.getElementById('answer-meta');
  var infoEl = document.getElementById('index-info');
  var current = null;

  var STOPWORDS = ['the', 'and', 'for', 'how', 'what', 'which', 'does', 'with', 'when', 'where', 'why', 'who', 'is', 'are', 'can', 'do', 'of', 'to', 'in', 'on', 'by', 'an', 'a', 'it', 'its', 'be', 'or', 'from', 'that', 'this', 'use', 'get'];
  var PY_KEYWORDS = 'False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield';
  var PY_TOKENS = new RegExp('(#[^\\n]*)|("""[\\s\\S]*?"""|\'\'\'[\\s\\S]*?\'\'\'|"(?:\\\\.|[^"\\\\\\n])*"|\'(?:\\\\.|[^\'\\\\\\n])*\')|\\b(' + PY_KEYWORDS + ')\\b|\\b(\\d[\\d_]*(?:\\.\\d+)?)\\b', 'g');
  var TOKEN_CLASSES = [null, 'tok-comment', 'tok-string', 'tok-keyword', 'tok-number'];

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.classList.toggle('error', Boolean(isError));
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  function describeError(body, status) {
    if (body && body.message) return body.message + (body.hint ? ' — ' + body.hint : '');
    return 'Request failed (' + status + ').';
  }

  function queryTerms(query) {
    var words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [];
    var seen = {};
    return words.filter(function (w) {
      if (w.length < 3 || STOPWORDS.indexOf(w) !== -1 || seen[w]) return false;
      seen[w] = true;
      return true;
    });
  }

  function termPattern(terms) {
    if (terms.length === 0) return null;
    // A term matches at the start of a word or of an identifier's part: "port" in
    // DEFAULT_PORT and ports, not in "import".
    return new RegExp('(?<![\\p{L}\\p{N}])(' + terms.map(function (t) { return t.replace(/[.*+?^{}()|[\]\\$]/g, '\\$&'); }).join('|') + ')', 'giu');
  }

  /** Escaped text with the query's terms wrapped in <mark>. */
  function markTerms(text, pattern) {
    if (!pattern) return escapeHtml(text);
    var out = '';
    var last = 0;
    text.replace(pattern, function (match, _group, index) {
      out += escapeHtml(text.slice(last, index)) + '<mark>' + escapeHtml(match) + '</mark>';
      last = index + match.length;
      return match;
    });
    return out + escapeHtml(text.slice(last));
  }

  /** [{cls, text}] segments of Python source (or one plain segment for prose). */
  function segmentsOf(text, isPython) {
    if (!isPython) return [{ cls: null, text: text }];
    var segments = [];
    var last = 0;
    PY_TOKENS.lastIndex = 0;
    var m;
    while ((m = PY_TOKENS.exec(text)) !== null) {
      if (m.index > last) segments.push({ cls: null, text: text.slice(last, m.index) });
      for (var g = 1; g < TOKEN_CLASSES.length; g++) {
        if (m[g] !== undefined) {
          segments.push({ cls: TOKEN_CLASSES[g], text: m[0] });
          break;
        }
      }
      last = m.index + m[0].length;
    }
    if (last < text.length) segments.push({ cls: null, text: text.slice(last) });
    return segments;
  }

  /** The span's text as numbered lines, syntax-coloured, terms marked, quoted lines flagged. */
  function renderCode(text, firstLine, isPython, pattern, quotedLines) {
    var lines = [[]];
    segmentsOf(text, isPython).forEach(function (segment) {
      segment.text.split('\n').forEach(function (part, i) {
        if (i > 0) lines.push([]);
        if (part) lines[lines.length - 1].push({ cls: segment.cls, text: part });
      });
    });
    return lines.map(function (parts, i) {
      var number = firstLine + i;
      var html = parts.map(function (p) {
        var inner = markTerms(p.text, pattern);
        return p.cls ? '<span class="' + p.cls + '">' + inner + '</span>' : inner;
      }).join('');
      var cls = quotedLines && quotedLines[number] ? 'line quoted' : 'line';
      return '<span class="' + cls + '" data-line="' + number + '">' + html + '</span>';
    }).join('');
  }

  /** 1-based lines (of the file) touched by code-point spans inside a source's text. */
  function linesOfSpans(text, firstLine, firstChar, spans) {
    var lines = {};
    var chars = Array.from(text);
    spans.forEach(function (span) {
      var from = Math.max(0, span.first_character_index - firstChar);
      var to = Math.min(chars.length, span.last_character_index - firstChar);
      var line = firstLine;
      for (var i = 0; i < chars.length && i < to; i++) {
        if (i >= from) lines[line] = true;
        if (chars[i] === '\n') line++;
      }
    });
    return lines;
  }

  function renderHit(hit, pattern) {
    var item = document.createElement('li');
    item.className = 'result';
    item.id = 'source-' + hit.rank;
    item.dataset.rank = String(hit.rank);
    var where = hit.file_path + ':' + hit.lines.start + (hit.lines.end > hit.lines.start ? '-' + hit.lines.end : '');
    var url = '/sources?file_path=' + encodeURIComponent(hit.file_path) + '&start=' + hit.first_character_index + '&end=' + hit.last_character_index;
    item.innerHTML =
      '<div class="result-head">' +
      '<span class="rank">[' + hit.rank + ']</span> ' +
      '<a class="path" href="' + escapeHtml(url) + '" title="The exact span, as the /sources API returns it">' + escapeHtml(where) + '</a>' +
      (hit.symbol ? ' <span class="symbol">' + escapeHtml(hit.symbol) + '</span>' : '') +
      (hit.also_symbols ? hit.also_symbols.map(function (s) { return ' + <span class="symbol">' + escapeHtml(s) + '</span>'; }).join('') : '') +
      ' <span class="kind muted">' + escapeHtml(hit.kind) + '</span>' +
      ' <span class="score muted">score ' + hit.score.toFixed(2) + '</span>' +
      (hit.stale ? ' <span class="stale" title="The file changed since it was indexed">changed on disk</span>' : '') +
      '</div><pre class="code"><code>Loading…</code></pre>';
    item.ready = fetch(url).then(function (response) {
      return response.json().then(function (body) {
        var code = item.querySelector('code');
        if (!response.ok) {
          code.textContent = describeError(body, response.status);
          item.classList.add('failed');
          return;
        }
        item.spanText = body.text;
        item.spanLine = body.start_line;
        item.spanStart = body.first_character_index;
        item.isPython = /\.pyi?$/i.test(hit.file_path);
        item.pattern = pattern;
        code.innerHTML = renderCode(body.text, body.start_line, item.isPython, pattern, null);
        item.dataset.loaded = 'true';
      });
    }).catch(function (error) {
      item.querySelector('code').textContent = 'Could not load the span: ' + error.message;
    });
    return item;
  }

  function renderHits(hits, query, why) {
    var pattern = termPattern(queryTerms(query));
    resultsEl.replaceChildren();
    hits.forEach(function (hit) { resultsEl.appendChild(renderHit(hit, pattern)); });
    if (hits.length === 0) setStatus(why ? 'No matches. ' + why : 'No matches.');
  }

  /** Marks the lines each cited source quotes, once its text is there. */
  function markQuotes(cited) {
    cited.forEach(function (source) {
      var item = document.getElementById('source-' + source.n);
      if (!item || !source.quotes || source.quotes.length === 0) return;
      item.ready.then(function () {
        if (item.spanText === undefined) return;
        var lines = linesOfSpans(item.spanText, item.spanLine, item.spanStart, source.quotes);
        item.querySelector('code').innerHTML = renderCode(item.spanText, item.spanLine, item.isPython, item.pattern, lines);
        item.classList.add('cited');
      });
    });
  }

  /** Answer text with code spans and clickable [n] citations. */
  function renderAnswer(text) {
    return text.split('\x60').map(function (part, i) {
      if (i % 2 === 1) return '<code>' + escapeHtml(part) + '</code>';
      return escapeHtml(part).replace(/\[(\d+(?:\s*[,\u2013-]\s*\d+)*)\]/g, function (match, inner) {
        return inner.split(/\s*,\s*/).map(function (n) {
          var range = n.split(/\s*[\u2013-]\s*/);
          var from = Number(range[0]);
          var to = Number(range[range.length - 1]);
          var links = [];
          for (var c = from; c <= to && links.length < 20; c++) {
            links.push('<a class="cite" href="#source-' + c + '" data-n="' + c + '">[' + c + ']</a>');
          }
          return links.join('');
        }).join('');
      });
    }).join('');
  }

  function focusSource(n) {
    var target = document.getElementById('source-' + n);
    if (!target) return;
    document.querySelectorAll('.result.focused').forEach(function (el) { el.classList.remove('focused'); });
    target.classList.add('focused');
    target.scrollIntoView({ block: 'start' });
    history.replaceState(null, '', '#source-' + n);
  }

  function cancelCurrent() {
    if (current) current.abort();
    current = new AbortController();
    return current.signal;
  }

  /** The k the form asks for, or null (after saying why) when it is not a whole number in 1..100. */
  function chosenK() {
    var k = Number(kInput.value);
    if (kInput.value === '' || !Number.isInteger(k) || k < 1 || k > 100) {
      setStatus('k must be a whole number from 1 to 100 (got "' + kInput.value + '").', true);
      kInput.focus();
      return null;
    }
    return k;
  }

  /** The comma-separated globs of the "in" field as the request body's globs (none when blank). */
  function withGlobs(body) {
    var globs = globsInput.value.split(',').map(function (glob) { return glob.trim(); }).filter(function (glob) { return glob !== ''; });
    if (globs.length > 0) body.globs = globs;
    return body;
  }

  async function search(query) {
    var k = chosenK();
    if (k === null) return;
    var signal = cancelCurrent();
    answerSection.hidden = true;
    setStatus('Searching…');
    var response = await fetch('/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withGlobs({ query: query, k: k })),
      signal: signal,
    });
    var body = await response.json();
    if (!response.ok) return setStatus(describeError(body, response.status), true);
    renderHits(body.hits, query, body.no_matches);
    if (body.hits.length > 0) setStatus(body.hits.length + ' results (' + body.retriever + (body.globs ? '; files matching ' + body.globs.join(', ') : '') + ').');
  }

  /** Parses "event: x\ndata: {...}" blocks out of the stream as they arrive. */
  async function readEvents(response, onEvent) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = '';
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      var end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        var block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        var event = 'message';
        var data = '';
        block.split('\n').forEach(function (line) {
          if (line.indexOf('event:') === 0) event = line.slice(6).trim();
          else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
        });
        if (data) onEvent(event, JSON.parse(data));
      }
    }
  }

  async function answer(query) {
    var k = chosenK();
    if (k === null) return;
    var signal = cancelCurrent();
    var streamed = '';
    var tokens = 0;
    answerSection.hidden = false;
    answerSection.dataset.state = 'streaming';
    answerText.innerHTML = '';
    answerMeta.textContent = '';
    setStatus('Retrieving sources…');
    var response = await fetch('/answer', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(withGlobs({ query: query, k: k, stream: true })),
      signal: signal,
    });
    if (!response.ok) {
      answerSection.dataset.state = 'error';
      var failure = await response.json().catch(function () { return null; });
      return setStatus(describeError(failure, response.status), true);
    }
    await readEvents(response, function (event, data) {
      if (event === 'sources') {
        renderHits(data.hits, query);
        setStatus('Answering from ' + data.hits.length + ' sources…');
      } else if (event === 'queued') {
        setStatus('Waiting for the model (' + data.position + ' ahead)…');
      } else if (event === 'token') {
        streamed += data.text;
        tokens++;
        answerSection.dataset.tokens = String(tokens);
        answerText.innerHTML = renderAnswer(streamed);
      } else if (event === 'done') {
        answerText.innerHTML = renderAnswer(data.answer);
        answerMeta.textContent = '(' + data.generator + ', ' + data.elapsed_ms + ' ms)';
        markQuotes(data.cited_sources);
        answerSection.dataset.state = 'done';
        setStatus('Answered with ' + data.cited_sources.length + ' cited source(s).');
      } else if (event === 'error') {
        answerSection.dataset.state = 'error';
        setStatus(describeError(data, 500), true);
      }
    });
  }

  function run(action) {
    var query = queryInput.value.trim();
    if (!query) return setStatus('Type a question first.', true);
    action(query).catch(function (error) {
      if (error.name !== 'AbortError') setStatus('Request failed: ' + error.message, true);
    });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    run(search);
  });
  answerButton.addEventListener('click', function () { run(answer); });
  answerText.addEventListener('click', function (event) {
    var link = event.target.closest('a.cite');
    if (!link) return;
    event.preventDefault();
    focusSource(link.dataset.n);
  });

  fetch('/stats').then(function (r) { return r.json(); }).then(function (stats) {
    infoEl.textContent = stats.files + ' files, ' + stats.chunks + ' chunks · retriever ' + stats.retriever + ' · generator ' + stats.generator +
      (stats.stale ? ' · ' + (stats.changed_count + stats.missing_count) + ' file(s) changed since indexing' : '');
    infoEl.classList.toggle('warning', Boolean(stats.stale));
  }).catch(function () { infoEl.textContent = ''; });
})();
`;
