/** The page's styles: system fonts, no external resources, readable in light and dark schemes. */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --bg: #fbfbfc; --muted: #6a707c; --line: #d9dce1; --accent: #2457c5; --mark: #ffe58a; --quoted: rgba(36, 87, 197, 0.12); --code-bg: #f2f3f5; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e4e6ea; --bg: #16181c; --muted: #9aa1ad; --line: #33373e; --accent: #7ea6ff; --mark: #6b5a00; --quoted: rgba(126, 166, 255, 0.16); --code-bg: #1e2126; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 980px; margin: 0 auto; padding: 0 16px; }
header { display: flex; align-items: baseline; gap: 16px; padding-top: 16px; }
h1 { font-size: 22px; margin: 0; }
h2 { font-size: 17px; margin: 0 0 8px; }
.muted { color: var(--muted); }
.warning { color: #b25f00; }
.error { color: #c62828; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
form { display: flex; gap: 8px; align-items: center; margin: 16px 0 8px; flex-wrap: wrap; }
#query { flex: 1 1 420px; font: inherit; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: inherit; }
#globs { width: 9em; font: inherit; padding: 6px; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: inherit; }
#k { width: 4.5em; font: inherit; padding: 6px; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: inherit; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button#search-button { background: transparent; color: var(--accent); }
#answer { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 8px 0 16px; }
.answer-text { white-space: pre-wrap; }
.answer-text code, .symbol { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; background: var(--code-bg); padding: 0 3px; border-radius: 3px; }
a.cite { color: var(--accent); text-decoration: none; font-weight: 600; padding: 0 1px; }
a.cite:hover { text-decoration: underline; }
#results { list-style: none; padding: 0; margin: 0; }
.result { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 12px; overflow: hidden; scroll-margin-top: 12px; transition: box-shadow 0.3s; }
.result.focused { box-shadow: 0 0 0 3px var(--accent); }
.result-head { padding: 6px 10px; border-bottom: 1px solid var(--line); font-size: 14px; overflow-wrap: anywhere; }
.rank { font-weight: 600; color: var(--accent); }
.path { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
.stale { color: #b25f00; font-size: 12px; border: 1px solid currentColor; border-radius: 4px; padding: 0 4px; }
pre.code { margin: 0; padding: 8px 0; max-height: 420px; overflow: auto; background: var(--code-bg); font: 13px/1.45 ui-monospace, Menlo, Consolas, monospace; }
pre.code .line { display: block; min-height: 1.45em; padding: 0 10px 0 0; white-space: pre; }
pre.code .line::before { content: attr(data-line); display: inline-block; width: 4em; padding-right: 10px; text-align: right; color: var(--muted); user-select: none; }
pre.code .line.quoted { background: var(--quoted); }
mark { background: var(--mark); color: inherit; border-radius: 2px; }
.tok-comment { color: #6a8759; font-style: italic; }
.tok-string { color: #a3501b; }
.tok-keyword { color: #8e3bb8; font-weight: 600; }
.tok-number { color: #1a7f8e; }
@media (prefers-color-scheme: dark) {
  .tok-comment { color: #8fb07a; } .tok-string { color: #e0a070; } .tok-keyword { color: #d19cf0; } .tok-number { color: #6cc7d4; }
}
`;
