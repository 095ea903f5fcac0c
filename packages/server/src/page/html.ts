/** The page's markup. Script and styles are separate files so the CSP can forbid inline code. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rag — ask the codebase</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header>
  <h1>rag</h1>
  <p id="index-info" class="muted">Loading index information…</p>
</header>
<main>
  <form id="search-form" autocomplete="off">
    <label for="query" class="visually-hidden">Question</label>
    <input id="query" name="query" type="search" placeholder="Ask a question about the code or docs…" required maxlength="4000" autofocus>
    <label for="k" class="muted">k <input id="k" name="k" type="number" min="1" max="100" value="5"></label>
    <label for="globs" class="muted">in <input id="globs" name="globs" type="text" placeholder="all files" title="Only files matching these comma-separated globs (.gitignore syntax, relative to the indexed folder: docs/, *.py; !tests/ leaves out)" maxlength="4000"></label>
    <button id="search-button" type="submit">Search</button>
    <button id="answer-button" type="button">Answer</button>
  </form>
  <p id="status" role="status" class="muted"></p>
  <section id="answer" hidden aria-live="polite">
    <h2>Answer <span id="answer-meta" class="muted"></span></h2>
    <div id="answer-text" class="answer-text"></div>
  </section>
  <section id="results-section">
    <ol id="results"></ol>
  </section>
</main>
</body>
</html>
`;
