import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerKindInstruction, detectAnswerKind } from '../src/index.js';
import { answerExtractively, NOT_FOUND_ANSWER } from '../src/internals.js';
import { source } from './helpers/sources.js';

// The project's own mini corpus (datasets/mini): whole files as the retrieved sources, in the
// order a retriever would plausibly return them (the right one is not always first).
const CORPUS = join(import.meta.dirname, '..', '..', '..', 'datasets', 'mini', 'corpus');
const file = (path: string) => source(readFileSync(join(CORPUS, path), 'utf8'), { file_path: path });
const defaults = file('tinyserve/defaults.py');
const routing = file('tinyserve/routing.py');
const app = file('tinyserve/app.py');
const readme = file('README.md');
const guide = file('docs/guide.md');
const deployment = file('docs/deployment.rst');

/** The answer's leading line (the direct answer) and the file its citation points at. */
function lead(question: string, sources: ReturnType<typeof file>[]) {
  const answer = answerExtractively(question, sources);
  const first = answer.lines[0]!;
  const n = Number(/\[(\d+)\]$/.exec(first)?.[1] ?? 0);
  return { first, cited: sources[n - 1]?.file_path, kind: answer.kind, answer };
}

describe('answer kinds read from the question', () => {
  it.each([
    ['What is the default port?', 'default'],
    ['Which exception is raised when no route matches?', 'error'],
    ['Where is the router implemented?', 'where'],
    ['How do I install tinyserve?', 'how'],
    ['Is Windows supported in production?', 'yesno'],
    ['Which Python versions are supported?', 'list'],
    // Plural agreement ("characters are") asks for several things, whatever the noun.
    ['Which characters are replaced when text is escaped?', 'list'],
    ['What flag do I pass to serve over TLS?', 'explain'],
    ['How many worker threads serve requests?', 'value'],
    ['Why does the last middleware run first?', 'explain'],
    ['What happens when a request body is too large?', 'consequence'],
    ['How is the request id computed?', 'mechanism'],
    // A how-to that mentions errors asks how, not which error.
    ['How can I run a command without the library handling its exceptions?', 'how'],
    ['What do I add to my shell startup file to enable completion?', 'how'],
  ] as const)('%s → %s', (question, kind) => {
    expect(detectAnswerKind(question)).toBe(kind);
    expect(answerKindInstruction(kind) === '').toBe(kind === 'explain');
  });
});

describe('the extractive answer leads with the fact the question asks for', () => {
  it('a default: the assignment, not the sentence around it', () => {
    // The guide's table row says 8421 too; the constant with its comment is the definition.
    const { first, cited } = lead('What TCP port does the development server use by default?', [guide, defaults, app]);
    expect(first).toContain('DEFAULT_PORT = 8421');
    expect(cited).toBe('tinyserve/defaults.py');
  });

  it('an error: the raise with its condition', () => {
    const { first, cited } = lead('Which exception is raised when a path matches no route?', [routing, guide, app]);
    expect(first).toMatch(/LookupError/);
    expect(cited).toBe('tinyserve/routing.py');
  });

  it('a place: file, line and symbol first', () => {
    const { first, cited } = lead('Where is the Router class defined?', [app, routing]);
    expect(first).toMatch(/^In `tinyserve\/routing\.py:\d+`/);
    expect(first).toContain('class Router');
    expect(cited).toBe('tinyserve/routing.py');
  });

  it('a place named by its identifier: the line that defines it, even when a docs sentence says "implemented"', () => {
    // The docs page comes first and has the question's other word; the question asks where
    // `register_handler` lives, which only its definition says.
    const page = source('# Handlers\n\nHandlers are implemented as plain functions that take a request.\n\nCall `register_handler` once per path; `register_handler` keeps the latest.\n', { file_path: 'docs/handlers.md' });
    const code = source('def register_handler(path, handler):\n    """Register handler for path."""\n    HANDLERS[path] = handler\n', { file_path: 'tinyserve/handlers.py' });
    const { first, cited } = lead('Where is register_handler implemented?', [page, code]);
    expect(first).toMatch(/^In `tinyserve\/handlers\.py:1`/);
    expect(first).toContain('def register_handler(path, handler):');
    expect(cited).toBe('tinyserve/handlers.py');
  });

  it('a place named in words: the class whose name the words spell, not a docs example that assigns it', () => {
    // "sandboxed environment" spells `SandboxedEnvironment` part by part; the docs example's
    // `env = …` only uses it (and `env` is a short form added for "environment", not a name
    // the question wrote).
    const page = source('# Sandbox\n\nThe sandboxed environment can be used to evaluate untrusted code:\n\n```python\nenv = SandboxedEnvironment()\n```\n', {
      file_path: 'docs/sandbox.md',
    });
    const code = source('class SandboxedEnvironment(Environment):\n    sandboxed = True\n', { file_path: 'pkg/sandbox.py', symbol: 'SandboxedEnvironment' });
    const { first, cited } = lead('Where is the sandboxed environment implemented?', [page, code]);
    expect(first).toMatch(/^In `pkg\/sandbox\.py:1` \(`SandboxedEnvironment`\): `class SandboxedEnvironment\(Environment\):`/);
    expect(cited).toBe('pkg/sandbox.py');
  });

  it("a default: the parameter's default, not an assignment in a docstring's example", () => {
    // The example line has more of the question's words (the class name and its parts) and
    // assigns, but it only shows a call; the signature holds the default. Sources in the order
    // a retriever gives them: the signature's chunk, the class with its docstring, a method.
    const cls = source(
      [
        'class FolderLoader(BaseLoader):',
        '    """Reads templates from folders on disk. Paths may be relative to the',
        '    working directory or absolute.',
        '',
        '    Several folders are searched in the order given, and the first one',
        '    that holds the template wins.',
        '',
        '    .. code-block:: python',
        '',
        '        loader = FolderLoader(["/site/templates", "/app/templates"])',
        '',
        '    :param paths: A folder or a list of folders to search.',
        '    :param encoding: The text encoding of the template files.',
        '    """',
      ].join('\n'),
      { file_path: 'pkg/loaders.py', symbol: 'FolderLoader' },
    );
    const init = source(
      [
        '    def __init__(self, paths, encoding: str = "utf-8", follow_links: bool = False) -> None:',
        '        if isinstance(paths, str):',
        '            paths = [paths]',
        '        self.paths = [os.fspath(p) for p in paths]',
        '        self.encoding = encoding',
      ].join('\n'),
      { file_path: 'pkg/loaders.py', symbol: 'FolderLoader.__init__' },
    );
    const read = source('    def get_source(self, name):\n        with open(self.find(name), "rb") as f:\n            return f.read().decode(self.encoding)\n', {
      file_path: 'pkg/loaders.py',
      symbol: 'FolderLoader.get_source',
    });
    const { first } = lead('What is the default encoding used by FolderLoader?', [init, cls, read]);
    expect(first).toContain('encoding: str = "utf-8"');
  });

  it('how to, answered by what doing it brings: "If you click …, the view switches to …"', () => {
    // The example's code lines share "text" and "plain" with the question and carry the how-to
    // boost as docs code; the sentence that says what to click is the instruction.
    const debugging = source('# Debugging\n\nThe error page shows a traceback with the source of each frame. If you click on the "Traceback" header, the page switches to a plain text traceback you can copy.\n', {
      file_path: 'docs/debugging.md',
    });
    const quickstart = source("# Quickstart\n\n```python\ntext = 'Hello World!'\nresponse = Response(text, mimetype='text/plain')\n```\n", { file_path: 'docs/quickstart.md' });
    const { first, cited } = lead('How do I get a plain-text traceback from the error page?', [quickstart, debugging]);
    expect(first).toContain('If you click on the "Traceback" header');
    expect(cited).toBe('docs/debugging.md');
  });

  it('how to: the command to run', () => {
    const { first, cited } = lead('How do I install tinyserve?', [guide, readme]);
    expect(first).toContain('pip install tinyserve==0.3.1');
    expect(cited).toBe('docs/guide.md');
  });

  it('how to, answered in prose: the example right after the sentence comes with it', () => {
    const page = source('# Cache\n\nTo turn the processor cache off, set its size to zero.\n\n```python\nllm = LLM(model="m", processor_cache_gb=0)\n```\n', { file_path: 'docs/cache.md' });
    const { first } = lead('How do I turn the processor cache off?', [page, readme]);
    expect(first).toMatch(/^To turn the processor cache off, set its size to zero\. `llm = LLM\(model="m", processor_cache_gb=0\)`/);
  });

  it('how to, where the best sentence only restates the need: the next sentence that names what to use comes with it', () => {
    // "you might want to let a user scroll" shares the most words with the question; the
    // sentence after it in the same paragraph names the function.
    const page = source(
      'Pager Support\n-------------\n\nSometimes you might want to show long texts on the terminal and let a user scroll\nthrough them.  This can be achieved by using the :func:`echo_via_pager` function.\n\nThe pager is picked from the environment.\n',
      { file_path: 'docs/utils.rst' },
    );
    const { first } = lead('How can I let the user scroll through long text output?', [page, readme]);
    expect(first).toMatch(/scroll through them\. This can be achieved by using the `echo_via_pager` function\. \[1\]$/);
  });

  it('a lead that mostly repeats the question is followed by the sentence that goes on, within its paragraph only', () => {
    const page = source(
      'Release checks\n\nBefore each release we run the end-to-end performance validation. It covers Llama 3 8B on H100 and Mixtral on MI300.\n\nResults are published on the dashboard.\n',
      { file_path: 'docs/ci.md' },
    );
    const { first } = lead('Which models does the end-to-end performance validation before each release cover?', [page, readme]);
    expect(first).toContain('Llama 3 8B on H100');
    expect(first).not.toContain('dashboard');
  });

  it('a lead that points back ("This is …", "It …") comes after the sentence it points to, within its paragraph only', () => {
    const page = source(
      'Reloader\n\n- The default ``poll`` backend checks the modification time of every file each second. This is enough for small projects, however, it is known to keep the disk awake.\n\nThe reloader restarts the server.\n',
      { file_path: 'docs/serving.rst' },
    );
    const { first } = lead('Which file-change detection is known to keep the disk awake?', [page, readme]);
    // Without the sentence before, "This" names nothing: the backend is in that sentence.
    expect(first).toMatch(/^The default `poll` backend checks the modification time of every file each second\. This is enough for small projects, however, it is known to keep the disk awake\. \[1\]$/);
    // A sentence across a blank line is another paragraph: it is not what "This" points to.
    const split = source('The default ``poll`` backend checks every file each second.\n\nThis is known to keep the disk awake.\n', { file_path: 'docs/serving.rst' });
    expect(lead('Which file-change detection is known to keep the disk awake?', [split, readme]).first).toMatch(/^This is known to keep the disk awake\. \[1\]$/);
  });

  it('a condition that leads comes with the lines of its block: what happens then', () => {
    const pool = source(
      [
        'class BlockPool:',
        '    def pop_free_block(self):',
        '        # Takes the first block of the free list.',
        '        if self.free_list_head is None or self.free_list_head is self.tail:',
        '            raise ValueError("No free blocks available")',
        '        block = self.free_list_head',
        '        self.free_list_head = block.next',
        '        return block',
        '',
      ].join('\n'),
      { file_path: 'pkg/block_pool.py' },
    );
    const { first } = lead('What happens when the free list head is the tail?', [pool]);
    expect(first).toMatch(/^`if self\.free_list_head is None or self\.free_list_head is self\.tail:`( — [^`]*)? `raise ValueError\("No free blocks available"\)`/);
    // The block ends where the indentation does: the lines after it are not part of the lead.
    expect(first).not.toContain('block = self.free_list_head');
  });

  it('what happens under a condition: the branch that runs then, with its block up to the next branch', () => {
    const pipeline = source(
      [
        'class Pipeline:',
        '    def run(self, hidden, residual=None):',
        '        """Run the layer; the residual of the previous layer is added back before the norm."""',
        '        hidden = self.attention(hidden)',
        '        if residual is None:',
        '            residual = hidden',
        '            hidden = self.norm(hidden)',
        '        else:',
        '            hidden, residual = self.norm(hidden, residual)',
        '        return hidden, residual',
        '',
      ].join('\n'),
      { file_path: 'pkg/pipeline.py', symbol: 'Pipeline.run' },
    );
    // The signature also holds "residual" and "None" and defines the parameter; without the
    // consequence form it leads and the branch is only one of its body lines.
    const { first, kind } = lead('What happens when the residual is None?', [pipeline]);
    expect(kind).toBe('consequence');
    expect(first).toBe('In `Pipeline.run`: `if residual is None:` `residual = hidden` `hidden = self.norm(hidden)` [1]');
    // `else:` is quoted by no unit, yet it ends the block: the line under it is the other branch's.
    expect(first).not.toContain('self.norm(hidden, residual)');
  });

  it('"when does X happen?" quotes the condition that decides it, with the lines that run under it', () => {
    const serializer = source(
      [
        'class UrlSafeSerializer:',
        '    def dump_payload(self, obj):',
        '        """Serialize obj; the payload is shortened when it pays."""',
        '        json = self.serializer.dumps(obj)',
        '        compressed = zlib.compress(json)',
        '        if len(compressed) < len(json) - 1:',
        '            json = compressed',
        '            is_compressed = True',
        '        return base64_encode(json)',
        '',
      ].join('\n'),
      { file_path: 'pkg/url_safe.py', symbol: 'UrlSafeSerializer.dump_payload' },
    );
    // Several lines say "compress"; what the question asks is when: the branch's condition,
    // with what runs under it (read as an explanation, the lead was the lines before it).
    const { answer, kind } = lead('When does the serializer compress its payload?', [serializer]);
    expect(kind).toBe('consequence');
    expect(answer.lines.join('\n')).toMatch(/`if len\(compressed\) < len\(json\) - 1:` … `json = compressed`/);
  });

  it("a how-to does not lead with what a program printed in a docs session, only with what was typed", () => {
    // The second line of the first block is the program's output: it names the formats and
    // the flag's words, but it is no step to take.
    const formats = source(
      ['# Output formats', '', '```console', '$ report --list-formats', 'output formats: json, yaml, toml; the default output format is json', '```', '', 'Pick one with the `--format` flag:', '', '```console', '$ report --format yaml', '```', ''].join('\n'),
      { file_path: 'docs/formats.md' },
    );
    const { first, answer } = lead('How do I choose the output format of a report?', [formats]);
    expect(first).not.toContain('output formats: json');
    expect(answer.lines.join('\n')).toContain('`$ report --format yaml`');
    // A stub's `...` body is no prompt: the lines of a plain code block stay steps.
    const stub = source(['```python', 'class Plugin:', '    def load(self):', '        ...', '', 'register_plugin(Plugin)', '```', ''].join('\n'), { file_path: 'docs/plugins.md' });
    expect(lead('How do I register a plugin class?', [stub]).first).toContain('register_plugin(Plugin)');
  });

  it('a condition inside a try ends its block where the try starts', () => {
    // `try:` is quoted by no unit; the line under it is indented deeper than the `if` but is not its block.
    const { first } = lead('What happens when a request body is too large?', [app, guide]);
    expect(first).toBe('`if len(request.body) > defaults.MAX_BODY_BYTES:` `return Response(b"Payload Too Large", status=413)` [1]');
  });

  it('a supporting sentence that introduces a command brings the command', () => {
    const stats = source('# Usage stats\n\nUsage data is collected anonymously by default and stored on your machine.\n', { file_path: 'docs/usage.md' });
    const preview = source('# Preview\n\nYou can preview the usage data collected on your machine by running the following command:\n\n```bash\ncat ~/.config/tiny/usage.json\n```\n', {
      file_path: 'docs/preview.md',
    });
    const { answer } = lead('Where is the usage data collected on my machine stored?', [stats, preview]);
    expect(answer.lines[0]).toContain('stored on your machine');
    expect(answer.lines.slice(1).join('\n')).toMatch(/following command: `cat ~\/\.config\/tiny\/usage\.json` \[2\]/);
  });

  it('a supporting sentence that introduces a list brings its first three items', () => {
    const intro = source('# Platforms\n\nThe chart below changes as tiny grows and supports more hardware platforms.\n', { file_path: 'docs/chart.md' });
    const platforms = source('# Installation\n\ntiny supports the following hardware platforms:\n\n- x86-64 CPUs\n- ARM64 CPUs\n- NVIDIA GPUs\n- RISC-V boards\n\nPick the page for yours.\n', {
      file_path: 'docs/install.md',
    });
    const { answer } = lead('Which hardware platforms does tiny support?', [intro, platforms]);
    expect(answer.lines[0]).toContain('The chart below changes');
    const rest = answer.lines.slice(1).join('\n');
    expect(rest).toMatch(/following hardware platforms: x86-64 CPUs; ARM64 CPUs; NVIDIA GPUs \[2\]/);
    expect(rest).not.toContain('RISC-V');
  });

  it('a list answered by one of its items: the sentence that introduces the list leads, and every item comes with it, each shortened to its share', () => {
    // The first item repeats most of the question's words and scores best; the question asks
    // for three ways, which the introduction and its items give. The items are long: each is
    // shortened to its part of the room, so the third is not crowded out by the first.
    const page = source(
      [
        '# Third-party transports',
        '',
        'Transport is close to infrastructure, so tiny relies on third-party transports for production use.',
        '',
        'We recommend three ways of implementation:',
        '',
        '- **Fully custom transport**: implement your own `Transport` and call third-party libraries to send and receive frames, and much more besides, such as rewriting the request before it is sent or batching frames by hand.',
        '- **Queue-like transport**: implement your own `FrameQueue` with `put` and `drain`, just like a message broker.',
        '- **Socket transport**: implement your own `Pipe` with `send_frame` and `recv_frame`, just like `socket`.',
        '',
      ].join('\n'),
      { file_path: 'docs/transports.md' },
    );
    const { first, answer } = lead('What are the three recommended ways to implement third-party transports in tiny?', [page]);
    expect(answer.kind).toBe('list');
    expect(first).toMatch(/^We recommend three ways of implementation: \*\*Fully custom transport\*\*: implement your own `Transport`.* \*\*Queue-like transport\*\*.*`drain`.* \*\*Socket transport\*\*.*`recv_frame`/);
    expect(first).not.toContain('batching frames by hand');
    expect(first.length).toBeLessThanOrEqual(520);
  });

  it('a list: a supporting item brings the other items of its list', () => {
    // The sentence above the list holds most of the question's words and leads; one item
    // matches "models" and is quoted, and the items next to it (the hardware) come with it.
    const release = source(
      [
        '## Performance validation',
        '',
        'Before each release, we run the end-to-end performance validation to catch regressions.',
        '',
        '**Current coverage:**',
        '',
        '* Models covered: Llama3 and Mixtral',
        '* Hardware: H100 and MI300x',
        '* Operating systems: Ubuntu 22.04',
        '',
      ].join('\n'),
      { file_path: 'RELEASE.md' },
    );
    const { answer } = lead('What models are covered by the end-to-end performance validation before each release?', [release]);
    expect(answer.kind).toBe('list');
    expect(answer.lines[0]).toMatch(/^Before each release/);
    expect(answer.lines.join('\n')).toMatch(/Models covered: Llama3 and Mixtral; Hardware: H100 and MI300x/);
  });

  it('a number the question writes finds the line that writes it, though the tokenizer drops numbers', () => {
    // "noop" and "elimination" are the question's rarest words and only the logging lines
    // hold both; "-1" is what singles out the branch the question asks about.
    const pass = source(
      [
        'class NoOpEliminationPass:',
        '    def __call__(self, graph):',
        '        self.dump_graph(graph, "before_noop_elimination")',
        '        for node in graph.nodes:',
        '            shape = node.args[1]',
        '            if shape.count(-1) > 1:',
        '                # Invalid reshape args, skip',
        '                continue',
        '            node.replace_all_uses_with(node.args[0])',
        '        self.dump_graph(graph, "after_noop_elimination")',
      ].join('\n'),
      { file_path: 'pkg/noop.py', symbol: 'NoOpEliminationPass.__call__' },
    );
    const { first } = lead('What happens when a reshape in the noop elimination has more than one -1 in its shape?', [pass]);
    expect(first).toMatch(/^In `NoOpEliminationPass.__call__`: `if shape.count\(-1\) > 1:` `continue`/);
    // A digit inside a name is not a number: "fp16" does not match 16.
    const widths = source('WIDTH_FP16 = 2\nDEFAULT_WIDTH = 16\n', { file_path: 'pkg/widths.py' });
    expect(lead('Which setting is 16 wide?', [widths]).first).toContain('DEFAULT_WIDTH = 16');
  });

  it('a place: the definition leads even when a docs sentence that names it scores higher', () => {
    // The docs sentence has every word of the question and ranks first; the question asks
    // which module defines `confirm`, which only the `def` line answers.
    const page = source('# Prompts\n\nTo ask whether to go on, the confirm function of the module comes in handy.\n', { file_path: 'docs/prompts.md' });
    const code = source(
      'def confirm(\n    text: str,\n    default: bool = False,\n    abort: bool = False,\n    prompt_suffix: str = ": ",\n    show_default: bool = True,\n) -> bool:\n    """Prompts for confirmation (yes/no question)."""\n',
      { file_path: 'tiny/termui.py', symbol: 'confirm' },
    );
    const { first, cited } = lead('Which module defines the confirm function?', [page, code]);
    expect(first).toMatch(/^In `tiny\/termui\.py:1` \(`confirm`\)/);
    expect(cited).toBe('tiny/termui.py');
  });

  it("how to: a sentence that introduces a code block matches with the block's words", () => {
    // Three sentences read "Add this to <file>:"; only the zsh one's code line says zsh, so
    // the zsh sentence (with its line) answers, not the fish one that shares "completion".
    const page = source(
      'Enabling completion\n===================\n\nAdd this to ``~/.bashrc``:\n\n.. code-block:: bash\n\n    eval "$(_FOO_COMPLETE=bash_source foo)"\n\nAdd this to ``~/.zshrc``:\n\n.. code-block:: zsh\n\n    eval "$(_FOO_COMPLETE=zsh_source foo)"\n\nAdd this to ``~/.config/fish/completions/foo.fish``:\n\n.. code-block:: fish\n\n    _FOO_COMPLETE=fish_source foo | source\n',
      { file_path: 'docs/completion.rst' },
    );
    const { first } = lead('What do I add to my zsh startup file to enable completion?', [page]);
    expect(first).toMatch(/^Add this to `~\/\.zshrc`: `eval "\$\(_FOO_COMPLETE=zsh_source foo\)"` \[1\]$/);
  });

  it('a colon brings the lines it introduces up to the first blank line, not the rest of the block', () => {
    const page = source(
      'Certificates\n============\n\nOverride the bundle by setting the ``CA_BUNDLE`` environment variable to a file path::\n\n    $ export CA_BUNDLE="/etc/ssl/cacert.pem"\n\n    $ python\n    >>> import tiny\n',
      { file_path: 'docs/certs.rst' },
    );
    const { first } = lead('Which environment variable points at a custom certificate bundle?', [page]);
    expect(first).toContain('`$ export CA_BUNDLE="/etc/ssl/cacert.pem"`');
    expect(first).not.toContain('import tiny');
  });

  it('a line that spells a value of the asked type leads: a MIME type for "which content type"', () => {
    // Both lines share two of the question's words; only the second spells a content type.
    const code = source(
      'def encode_body(data):\n    kind = "dict body" if isinstance(data, dict) else "raw body"\n    content_type = "application/x-www-form-urlencoded"\n    return kind, content_type\n',
      { file_path: 'tiny/body.py', symbol: 'encode_body' },
    );
    const { first } = lead('Which content type does a dict body get?', [code]);
    expect(first).toContain('application/x-www-form-urlencoded');
  });

  it('the line that states a value of the asked type is quoted even when it shares no word with the question', () => {
    // "which HTTP status … redirect" matches the class and its docstring; `code = 308` repeats
    // none of the question's words, but a status is what was asked.
    const redirect = source(
      'class RequestRedirect(HTTPException):\n    """Raised when the router redirects a URL that lacks its trailing slash."""\n\n    code = 308\n\n    def __init__(self, new_url):\n        self.new_url = new_url\n',
      { file_path: 'tiny/routing.py', symbol: 'RequestRedirect' },
    );
    const question = 'When a URL lacks the trailing slash its route requires, which HTTP status does the redirect use?';
    expect(answerExtractively(question, [redirect]).lines.join('\n')).toContain('code = 308');
    // Without an asked type (a status, an encoding, …) nothing is added for it.
    const untyped = answerExtractively('When a URL lacks the trailing slash its route requires, what does the router do?', [redirect]);
    expect(untyped.lines.join('\n')).not.toContain('code = 308');
  });

  it('a line past the two best sources is not quoted for the asked type; in the second it is', () => {
    const question = 'Which HTTP status tells whether a response redirects the client?';
    const helper = (n: number) =>
      source(`def helper_${n}(response):\n    """Whether the response redirects the client."""\n    return response.ok\n`, { file_path: `tiny/h${n}.py`, symbol: `helper_${n}` });
    const gone = source('class Gone(HTTPException):\n    code = 410\n', { file_path: 'tiny/gone.py', symbol: 'Gone' });
    expect(answerExtractively(question, [helper(1), helper(2), gone]).lines.join('\n')).not.toContain('code = 410');
    expect(answerExtractively(question, [helper(1), gone, helper(2)]).lines.join('\n')).toContain('code = 410');
  });

  it('a joined sentence that introduces a line brings that line too', () => {
    // The lead only restates the question, so the next sentence joins it; that one ends in
    // "::" and the line it introduces is the fix.
    const page = source(
      'Slow pages\n==========\n\nIf pages from the development server load slowly, the ipv6 entry is to blame. You can remove the entry from the hosts file by deleting this line::\n\n    ::1 localhost\n\nOther causes are rare.\n',
      { file_path: 'docs/slow.rst' },
    );
    const { first } = lead('Why do pages from the development server load slowly?', [page]);
    expect(first).toContain('deleting this line::');
    expect(first).toContain('`::1 localhost`');
    expect(first).not.toContain('Other causes');
  });

  it('an error: a call inside a try leads with the handler that says what happens when it fails', () => {
    const code = source(
      'def send(data):\n    try:\n        client.post(SERVER_URL, json=data)\n    except requests.RequestException:\n        # Swallowed: only logged in debug mode.\n        logging.debug("could not send the data")\n',
      { file_path: 'tiny/usage.py', symbol: 'send' },
    );
    const { first } = lead('What happens if posting the data to the server fails?', [code]);
    // The lead quotes `send`'s body without naming it, so the answer names it first.
    expect(first).toMatch(/^In `send`: `client\.post\(SERVER_URL, json=data\)` `except requests\.RequestException:` `logging\.debug\("could not send the data"\)`/);
  });

  it('a code line that leads comes after the condition or handler it runs under, when it is among its first lines', () => {
    const code = source(
      [
        'def report(data):',
        '    try:',
        '        client.post(SERVER_URL, json=data)',
        '    except requests.RequestException:',
        '        # Swallowed: only logged in debug mode.',
        '        logging.debug("Failed to send usage data to server")',
        '    finally:',
        '        data.clear()',
        '',
      ].join('\n'),
      { file_path: 'tiny/usage.py', symbol: 'report' },
    );
    // The debug line matches best; the handler above it says which failure it follows.
    const { first } = lead('Is a failure to send usage data to the server logged?', [code]);
    expect(first).toMatch(/`except requests\.RequestException:` `logging\.debug\("Failed to send usage data to server"\)`/);
    // A line deep in a long block stands alone: its condition is too far above to be its "when".
    const long = source(
      ['def report(data):', '    if data:', '        a = 1', '        b = 2', '        c = 3', '        d = 4', '        logging.debug("Failed to send usage data to server")', ''].join('\n'),
      { file_path: 'tiny/usage.py', symbol: 'report' },
    );
    expect(lead('Is a failure to send usage data to the server logged?', [long]).first).not.toContain('if data:');
  });

  it("quotes an attribute's docstring once: with its assignment, not again on its own", () => {
    const settings = source(
      [
        'class Server:',
        '    socket_queue_size = 5',
        '    """The backlog argument to listen(); the most queued connections (default 5)."""',
        '',
        '    socket_timeout = 10',
        '    """Seconds an accepted connection may stay idle before it is closed (default 10)."""',
        '',
      ].join('\n'),
      { file_path: 'tiny/server.py', symbol: 'Server' },
    );
    const { answer } = lead('How many queued connections does listen allow by default?', [settings]);
    const text = answer.lines.join('\n');
    expect(answer.lines[0]).toMatch(/^In `Server`: `socket_queue_size = 5` — The backlog argument to listen\(\); the most queued connections/);
    expect(text.split('the most queued connections').length - 1).toBe(1);
  });

  it('names the function or class a quoted code line belongs to, unless the quote names it', () => {
    const guard = source('def safe_join(base, *parts):\n    """Join untrusted parts onto a trusted base."""\n    if any(p.startswith("..") for p in parts):\n        return None\n    return "/".join([base, *parts])\n', {
      file_path: 'tiny/paths.py',
      symbol: 'paths.safe_join',
    });
    const unnamed = lead('What is returned when a part starts with ".."?', [guard]);
    expect(unnamed.first).toMatch(/^In `paths\.safe_join`: /);
    // A lead that already names the function, or a docs page, gets no prefix.
    const named = lead('What arguments does safe_join take?', [guard]);
    expect(named.first).toMatch(/^`def safe_join/);
    const page = source('Joining paths\n=============\n\nA part that starts with ``..`` makes the join return None.\n', { file_path: 'docs/paths.rst', symbol: 'Joining paths' });
    expect(lead('What comes back when a part starts with ".."?', [page]).first).toMatch(/^A part that starts/);
  });

  it('a line that only names a value comes with the assignment that gives it', () => {
    const code = source(
      'def derive_max_len(config):\n    default_max_len = 2048\n    for key in KEYS:\n        if key in config:\n            return config[key]\n    logger.warning("The config has none of the keys %s; assuming the maximum length is %d.", KEYS, default_max_len)\n    return default_max_len\n',
      { file_path: 'tiny/config.py', symbol: 'derive_max_len' },
    );
    const { first } = lead('What maximum length is assumed when the config has none of the keys?', [code]);
    expect(first).toContain('logger.warning(');
    expect(first).toContain('`default_max_len = 2048`');
  });

  it('yes or no: the sentence with the condition', () => {
    const { first, cited } = lead('Is Windows supported for production use?', [readme, deployment]);
    expect(first).toContain('not for production use');
    expect(cited).toBe('README.md');
  });

  it('a list: the sentence that introduces the rows leads, and the rows come with it', () => {
    // "Which settings have …" asks for several (plural agreement). The rows of the guide's
    // settings table carry the items, and so does the sentence ending in a colon right above
    // them: it leads, with the rows it introduces (those quoted separately are not repeated).
    const { first, answer } = lead('Which settings have an environment variable that overrides them?', [guide, defaults]);
    expect(answer.kind).toBe('list');
    expect(first).toMatch(/^Every setting has a default and an environment variable that overrides it: host \| `TINYSERVE_HOST`/);
    const all = answer.lines.join('\n');
    for (const variable of ['TINYSERVE_HOST', 'TINYSERVE_PORT', 'TINYSERVE_WORKERS']) expect(all).toContain(variable);
  });

  it("a function's docstring: its opening sentence brings what it says is returned", () => {
    // The question says "give back", the docstring ":return:": no shared word, so the return
    // field can only come with the sentence that does match.
    const join = source(
      [
        'def safe_join(directory, *pathnames):',
        '    """Safely join untrusted path components to a base directory.',
        '',
        '    :param directory: The trusted base directory.',
        '    :param pathnames: The untrusted path components.',
        '    :return: A safe path, otherwise ``None``.',
        '    """',
        '    parts = [directory]',
      ].join('\n'),
      { file_path: 'pkg/security.py', symbol: 'safe_join' },
    );
    const { first } = lead('What does joining untrusted path components onto a base directory give back?', [join]);
    expect(first).toBe('In `safe_join`: Safely join untrusted path components to a base directory. Returns: A safe path, otherwise `None`. [1]');
  });

  it('a list: the line that holds the items is quoted though a summary sentence outscores it by far', () => {
    // The docstring's opening sentence holds most of the question's words; the line that does
    // the replacing holds two and scores about a quarter as much, below the usual cut, but it
    // is the only line that carries a list (literal pairs), so it is quoted.
    const code = source(
      [
        'def json_for_html(obj):',
        '    """Serialize an object to JSON, replacing the characters that are unsafe in HTML with Unicode escapes."""',
        '    text = json.dumps(obj)',
        '    return text.replace("<", "\\\\u003c").replace(">", "\\\\u003e").replace("&", "\\\\u0026")',
      ].join('\n'),
      { file_path: 'pkg/htmljson.py', symbol: 'json_for_html' },
    );
    const { answer } = lead('Which characters are replaced when an object is dumped for an HTML page?', [code]);
    expect(answer.kind).toBe('list');
    expect(answer.lines[0]).toMatch(/^In `json_for_html`: Serialize an object to JSON, replacing/);
    expect(answer.lines.join('\n')).toContain('text.replace("<", "\\\\u003c")');
  });

  it("a default quoted by a constant's name comes with the constant's value, from another source", () => {
    const adapter = source('class Adapter:\n    def __init__(self, pool_connections=DEFAULT_POOLSIZE, pool_block=DEFAULT_POOLBLOCK):\n        self.pool_connections = pool_connections\n', {
      file_path: 'pkg/adapters.py',
      symbol: 'Adapter.__init__',
    });
    const constants = source('DEFAULT_POOLBLOCK = False\nDEFAULT_POOLSIZE = 10\nDEFAULT_RETRIES = 0\n', { file_path: 'pkg/constants.py' });
    const all = answerExtractively('How many connections does the adapter pool by default?', [adapter, constants]).lines.join('\n');
    expect(all).toContain('pool_connections=DEFAULT_POOLSIZE');
    expect(all).toContain('`DEFAULT_POOLSIZE = 10`');
    expect(all).toContain('`DEFAULT_POOLBLOCK = False`');
  });

  it('a place asked in words is answered when a sentence covers the question, though the line that defines a word of it covers little', () => {
    // "folder" is assigned in the code, so the definition leads; whether anything answers is
    // still read off the strongest sentence (the docs page's), not off that line.
    const docs = source('Finding Application Folders\n===========================\n\nVery often you want to open a configuration file that belongs to your application.\nEach platform keeps such files in its own place, and the helper below picks the right one.\n', {
      file_path: 'docs/utils.rst',
      symbol: 'Finding Application Folders',
    });
    const code = source(
      'def get_app_dir(app_name, roaming=True, force_posix=False):\n    """Returns the config folder for the application."""\n    if WIN:\n        folder = os.environ.get(key)\n    return os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config")), app_name)\n',
      { file_path: 'pkg/utils.py', symbol: 'get_app_dir' },
    );
    const answer = answerExtractively('Where is the configuration folder of an application placed on Linux when nothing special is asked?', [docs, code]);
    expect(answer.kind).toBe('where');
    expect(answer.lines[0]).not.toContain(NOT_FOUND_ANSWER);
    expect(answer.lines[0]).toMatch(/^In `pkg\/utils\.py:\d+` \(`get_app_dir`\)/);
  });

  it("a supporting code line keeps its comment only when the comment speaks of what was asked, and briefly; a line is not quoted twice", () => {
    const code = source(
      [
        'def rebuild_method(self, prepared_request, response):',
        '    """When being redirected we may want to change the method of the request."""',
        '    method = prepared_request.method',
        '    # https://tools.ietf.org/html/rfc7231#section-6.4.4 says so, see the discussion there for the details of browsers',
        '    if response.status_code == codes.see_other and method != "HEAD":',
        '        method = "GET"',
        '    # Second, if a POST is responded to with a 301, turn it into a GET, as browsers have always done since the early days of the web.',
        '    if response.status_code == codes.moved and method == "POST":',
        '        method = "GET"',
      ].join('\n'),
      { file_path: 'pkg/redirects.py', symbol: 'rebuild_method' },
    );
    // The see_other line supports; its comment (a link and "see the discussion") names nothing asked.
    const first = answerExtractively('Which status codes turn a POST into a GET?', [code]).lines;
    expect(first[0]).toContain('codes.moved');
    expect(first[0]!.match(/`method = "GET"`/g)).toHaveLength(1);
    expect(first[1]).toBe('- `if response.status_code == codes.see_other and method != "HEAD":` [1]');
    // Here the 301 line supports, and its comment says what was asked ("POST", "GET"): kept, shortened.
    const second = answerExtractively('When does a POST become a GET after a see_other status?', [code]).lines;
    expect(second[0]).toContain('codes.see_other');
    // (A "when" question asks for a condition: the branch brings the line it runs, `method = "GET"`.)
    expect(second[1]).toMatch(/^- `if response\.status_code == codes\.moved and method == "POST":` — Second, if a POST is responded to with a 301, .{0,20}…( … `method = "GET"`)? \[1\]$/);
    expect(second.join('\n')).not.toContain('early days');
  });

  it("how something is computed, on the project's own corpus: the lines that build the route's regular expression", () => {
    const { answer, cited } = lead("How is a route's pattern turned into a regular expression?", [routing, guide, app]);
    expect(answer.kind).toBe('mechanism');
    expect(cited).toBe('tinyserve/routing.py');
    expect(answer.lines.join('\n')).toContain('self.regex = re.compile("^" + _PLACEHOLDER.sub(replace, self.pattern) + "$")');
  });

  it('how something is computed: the lines that compute it, not the sentences around them', () => {
    const loader = source(
      [
        'class ModuleLoader(BaseLoader):',
        '    """This loader loads templates from precompiled templates kept in a module folder."""',
        '    def __init__(self, path):',
        '        package_name = f"_templates_module_{id(self):x}"',
        '        mod = _TemplateModule(package_name)',
        '        self.module = mod',
        '',
        '    @staticmethod',
        '    def get_template_key(name):',
        '        return "tmpl_" + sha1(name.encode("utf-8")).hexdigest()',
        '',
        '    @staticmethod',
        '    def get_module_filename(name):',
        '        return ModuleLoader.get_template_key(name) + ".py"',
      ].join('\n'),
      { file_path: 'pkg/loaders.py', symbol: 'ModuleLoader' },
    );
    const how = answerExtractively("How is the module name of a precompiled template derived from the template's name?", [loader]);
    expect(how.kind).toBe('mechanism');
    expect(how.lines.join('\n')).toContain('return "tmpl_" + sha1(name.encode("utf-8")).hexdigest()');
    // Asked why, the same words are answered by the docstring and the constructor.
    const why = answerExtractively("Why is the module name of a precompiled template derived from the template's name?", [loader]);
    expect(why.kind).toBe('explain');
    expect(why.lines.join('\n')).not.toContain('"tmpl_"');
  });

  it('a value: the literal with its unit', () => {
    const { first, cited } = lead('How many seconds may a handler run before the request gets 504?', [defaults, guide]);
    expect(first).toContain('30');
    expect(cited).toBe('tinyserve/defaults.py');
  });
});

describe('questions the sources cannot answer', () => {
  it.each([
    'Which database driver does tinyserve use for PostgreSQL connections?',
    'How do I configure TLS certificates for HTTPS?',
    'Which template engine renders HTML pages?',
    // "tinyserve" is in every source, so it says nothing about which one answers; without
    // it, "users", "tokens", "stream" and "responses" are all these sources share with them.
    'How does tinyserve authenticate users with OAuth tokens?',
    'Can tinyserve stream responses over WebSockets?',
  ])('%s → not found, with the closest sources named and no quote', (question) => {
    const answer = answerExtractively(question, [readme, deployment, guide]);
    expect(answer.lines).toHaveLength(1);
    expect(answer.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(true);
    expect(answer.lines[0]).toContain('[1] README.md');
    expect(answer.citedSources.every((cited) => cited.quotes === undefined)).toBe(true);
  });

  it('"not found" names the telling words of the question that no source mentions, as the question spells them', () => {
    // What the reader would search for next. "Can", "stream", "responses" are held somewhere.
    const ws = answerExtractively('Can tinyserve stream responses over WebSockets?', [readme, deployment, guide]);
    expect(ws.lines[0]).toMatch(/^The retrieved sources do not appear to contain the answer to this question\. None of them mentions “WebSockets”\. The closest sources: \[1\] README\.md/);
    const pg = answerExtractively('Which database driver does tinyserve use for PostgreSQL connections?', [readme, deployment, guide]);
    expect(pg.lines[0]).toContain('“PostgreSQL”');
    expect(pg.lines[0]).not.toContain('“tinyserve”');
  });

  it('a question about another codebase that shares only common words with the sources → not found, not a near quote', () => {
    // "error", "raise" and "field" are in the sources (a handler that raises gets 500), but no
    // source holds a third of the question's words: nothing here is about immutable instances.
    const answer = answerExtractively('Which error does assigning to a field of an immutable instance raise?', [readme, deployment, guide, defaults, app]);
    expect(answer.lines).toHaveLength(1);
    expect(answer.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(true);
  });

  it('most of the question in words the whole corpus lacks → not found, naming them, though the sources share the rest', () => {
    // The sources hold "default", "development" and "server", and a default port is a
    // near quote; "Kafka" and "topic" are in no indexed file (what the retriever reports),
    // and they are most of what the question asks.
    const question = 'What is the default Kafka topic of the development server?';
    const sources = [defaults, app, readme];
    expect(answerExtractively(question, sources).lines[0]).toContain('DEFAULT_PORT = 8421');
    const told = answerExtractively(question, sources, {}, ['Kafka', 'topic']);
    expect(told.lines).toHaveLength(1);
    expect(told.lines[0]).toMatch(/^The retrieved sources do not appear to contain the answer to this question\. The indexed sources never mention “Kafka” or “topic”\. The closest sources: \[1\] tinyserve\/defaults\.py/);
    expect(told.citedSources.every((cited) => cited.quotes === undefined)).toBe(true);
  });

  it('words the corpus never uses that only phrase the question (verbs, adjectives, adverbs) do not make it "not found"', () => {
    // "simultaneously" and "many", "refused" and "outright" are in no indexed file (the
    // corpus says "concurrently" and "rejected"), and at full weight they would be 0.40 and
    // 0.47 of what the questions ask; but the things asked about — worker threads, a
    // request body — are there. A missing noun still counts whole (the Kafka topic above).
    const sources = [defaults, app, readme];
    const workers = answerExtractively('How many worker threads serve requests simultaneously?', sources, {}, ['many', 'simultaneously']);
    expect(workers.lines[0]).toContain('DEFAULT_WORKERS = 4');
    const body = answerExtractively('How large may a request body be before it is refused outright?', sources, {}, ['refused', 'outright']);
    expect(body.lines[0]).toContain('MAX_BODY_BYTES = 1_048_576');
  });

  it('a phrasing word the question uses as a name ("the stubborn option") counts whole', () => {
    // "stubborn" is an adjective to English, but before "option" it names a setting the
    // corpus never mentions; asked as a state of the server, it only phrases the question.
    const sources = [defaults, app, readme];
    const named = answerExtractively('What does the stubborn option of the development server do?', sources, {}, ['stubborn']);
    expect(named.lines[0]).toMatch(/^The retrieved sources do not appear to contain the answer to this question\. The indexed sources never mention “stubborn”\./);
    const phrased = answerExtractively('What does the development server do when it is stubborn?', sources, {}, ['stubborn']);
    expect(phrased.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(false);
  });

  it('words the corpus holds in one chunk only count like unindexed ones when no source holds the question', () => {
    // Told that "retry" and "backoff" are in one chunk of the corpus each (`rareWords`), and
    // no source shown holds them: the default port is a near quote, not the answer.
    const sources = [defaults, app, readme];
    const backoff = 'What is the default retry backoff of the development server?';
    expect(answerExtractively(backoff, sources).lines[0]).toContain('DEFAULT_PORT = 8421');
    const told = answerExtractively(backoff, sources, {}, [], ['retry', 'backoff']);
    expect(told.lines).toHaveLength(1);
    expect(told.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(true);
    // A source holds most of this question's words (a default port the server listens on): the
    // rare "metrics exporter" may be a detail of that very passage, so the answer stands.
    const exporter = 'Which default port does the metrics exporter of the server listen on?';
    expect(answerExtractively(exporter, sources, {}, [], ['metrics', 'exporter']).lines).toEqual(answerExtractively(exporter, sources).lines);
  });

  it('one unindexed word among the telling ones leaves the answer as it was', () => {
    // "megaclusters" is in no file, but the default port of the development server is.
    const question = 'What is the default port of the development server in megaclusters?';
    const told = answerExtractively(question, [defaults, app, readme], {}, ['megaclusters']);
    expect(told.lines).toEqual(answerExtractively(question, [defaults, app, readme]).lines);
    expect(told.lines[0]).toContain('DEFAULT_PORT = 8421');
  });

  it("a question that names the project the sources live in is answered, though their lines never say the project's name", () => {
    // The code returns `list[_S]`, and the question names tinyserve, the project whose path
    // the sources lie in: a source holds its path's words as surely as its lines'. Counted
    // from the lines alone, "tinyserve" and "multimedia" would weigh the question's support
    // below a quarter and the answer would be "not found", naming "tinyserve" as missing.
    const question = 'In the multimedia processing module of tinyserve, what comes back from applying the edits?';
    const apply = source(
      'def _apply_edits(\n    prompt: _S,\n    edits: Mapping[str, Sequence[PromptEdit]],\n    counts: Mapping[str, int],\n) -> list[_S]:\n    """Apply the edits in `edits` to `prompt`."""\n    out_seqs = list[Union[str, list[int]]]()\n    prev_end_idx = 0\n    for edit in edits:\n        out_seqs.append(edit.content)\n    return out_seqs\n',
      { file_path: 'tinyserve/util.py' },
    );
    const caller = source('def apply_text_edits(prompt, edits, counts):\n    token_seqs = _apply_edits(prompt, edits, counts)\n    return token_seqs\n', { file_path: 'tinyserve/util.py', symbol: 'apply_text_edits' });
    const engine = source('def _convert_args(self, args):\n    """Convert the arguments of a call to the engine."""\n    return [self.decoder(arg) for arg in args]\n', { file_path: 'tinyserve/engine/core.py', symbol: 'EngineCore._convert_args' });
    const answer = answerExtractively(question, [apply, caller, engine]);
    expect(answer.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(false);
    expect(answer.lines[0]).toContain('list[_S]');
    // The same code in another project's files is "not found", and now tinyserve is missing.
    const elsewhere = answerExtractively(question, [apply, caller, engine].map((s) => ({ ...s, file_path: s.file_path.replace('tinyserve/', 'shop/') })));
    expect(elsewhere.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(true);
    expect(elsewhere.lines[0]).toContain('“tinyserve”');
  });

  it('a short question whose one source holds its rarest word and a word its name begins with is answered', () => {
    // `STARTUP_BANNER` holds "banner" and begins "start": two of the question's five words,
    // where each other source holds one. Counted whole, "start" would be missing and no source
    // would hold a third of the words.
    const builds = source('Development builds are slower.\n', { file_path: 'docs/builds.md' });
    const ports = source('Each server needs a port of its own.\n', { file_path: 'docs/ports.md' });
    const banner = source('STARTUP_BANNER = "tinyserve listening on {host}:{port}"\n', { file_path: 'tinyserve/i18n.py' });
    const answer = answerExtractively('What banner is printed when the development server starts?', [builds, ports, banner]);
    expect(answer.lines[0]!.startsWith(NOT_FOUND_ANSWER)).toBe(false);
    expect(answer.lines.join('\n')).toContain('STARTUP_BANNER');
  });
});

