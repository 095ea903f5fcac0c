import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readableField, splitIntoUnits } from '../src/internals.js';
import { readableMarkup } from '../src/extractive/text-lines.js';

function displays(text: string, path: string): string[] {
  return splitIntoUnits(text, path).map((u) => (u.note ? `${u.display} // ${u.note}` : u.display));
}

describe('readableMarkup', () => {
  it('shows RST roles, links and literals as a reader sees them rendered', () => {
    expect(readableMarkup('Raises :exc:`~requests.exceptions.ConnectionError` on a DNS failure.')).toBe('Raises `ConnectionError` on a DNS failure.');
    expect(readableMarkup('Call :py:meth:`Response.close <requests.Response.close>` or :func:`!json.dumps`.')).toBe('Call `Response.close` or `json.dumps`.');
    // A section reference reads as its title; a bare label is a name; a term is a word.
    expect(readableMarkup('See :ref:`SSL verification <verification>` and :ref:`features/settings:debug`.')).toBe('See SSL verification and `features/settings:debug`.');
    expect(readableMarkup('Every :term:`controller` is exposed.')).toBe('Every controller is exposed.');
    expect(readableMarkup('Install `ws4py <https://github.com/Lawouach/WebSocket-for-Python>`_ or read `the FAQ`_ and `details <faq>`__.')).toBe(
      'Install ws4py (https://github.com/Lawouach/WebSocket-for-Python) or read the FAQ and details.',
    );
    expect(readableMarkup('Set ``tools.gzip.on`` to `True`.')).toBe('Set `tools.gzip.on` to `True`.');
    // Markdown: a page's address stays (it is what "where can I find …" asks for); a reference
    // to a Python object reads as its name; one to a label, as its text; code spans as written.
    expect(readableMarkup('Find them [here](../install/tpu.md) or at [the site](https://x.org "X").')).toBe('Find them here (../install/tpu.md) or at the site (https://x.org).');
    expect(readableMarkup('The [embed][vllm.LLM.embed] method uses the [Transformers backend][transformers-backend]. ![diagram](d.png)')).toBe(
      'The `vllm.LLM.embed` method uses the Transformers backend. diagram',
    );
    expect(readableMarkup('Index with `x[0](y)` as written.')).toBe('Index with `x[0](y)` as written.');
  });

  it('never lengthens text, and leaves text without markup as it is', () => {
    const piece = fc.constantFrom('`', '``', '[', ']', '(', ')', '<', '>', ':', '_', 'ref', 'exc:', 'a.b', ' ', 'x', 'https://x.org', '!');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect(readableMarkup(text).length).toBeLessThanOrEqual(text.length);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[\w .,;!?'"-]*$/), (text) => {
        expect(readableMarkup(text)).toBe(text);
      }),
    );
  });

  it('keeps the markup as written for matching: a role says what its target is', () => {
    const [unit] = splitIntoUnits('Requests will raise a :exc:`~requests.exceptions.ConnectionError` exception.\n', 'docs/errors.rst');
    expect(unit!.display).toBe('Requests will raise a `ConnectionError` exception.');
    expect(unit!.matched).toBe('Requests will raise a :exc:`~requests.exceptions.ConnectionError` exception.');
    // Plain prose has nothing else to match.
    expect(splitIntoUnits('Plain words only.\n', 'docs/plain.rst')[0]!.matched).toBeUndefined();
  });
});

describe('splitIntoUnits for code', () => {
  const code = [
    '"""Default settings. Every value can be overridden',
    'by an environment variable."""',
    '',
    'import os',
    '',
    '# TCP port the development server listens on.',
    'DEFAULT_PORT = 8421',
    '',
    'HEADERS = {',
    '    "Server": "tinyserve",',
    '}',
    '',
    'def f(a, b=2):',
    '    return a + b',
  ].join('\n');

  it("drops a comment banner's rules from the note it gives a statement", () => {
    const banner = ['class OvisConfig(Base):', '    # ' + '-'.repeat(40), '    # Ovis configuration', '    # ' + '='.repeat(40), '    model_type = "ovis"'].join('\n');
    expect(displays(banner, 'pkg/config.py')).toEqual(['class OvisConfig(Base):', 'model_type = "ovis" // Ovis configuration']);
  });

  it("gives an attribute's docstring to the assignment it stands under, and keeps its sentences", () => {
    const server = [
      'class Server(Adapter):',
      '    """An adapter for an HTTP server."""',
      '',
      '    socket_port = 8080',
      '    """The TCP port on which to listen for connections."""',
      '',
      '    # Seconds a connection may stay idle.',
      '    socket_timeout: int = 10',
      "    '''Closed after that.'''",
      '',
      '    def start(self):',
      '        """Start the server."""',
      '        self.ready = True',
      '',
      '        """Not an attribute\'s: a blank line stands between."""',
    ].join('\n');
    expect(displays(server, 'pkg/server.py')).toEqual([
      'class Server(Adapter):',
      'An adapter for an HTTP server.',
      'socket_port = 8080 // The TCP port on which to listen for connections.',
      'The TCP port on which to listen for connections.',
      'socket_timeout: int = 10 // Seconds a connection may stay idle. Closed after that.',
      'Closed after that.',
      'def start(self):',
      'Start the server.',
      'self.ready = True',
      "Not an attribute's: a blank line stands between.",
    ]);
  });

  it('reads docstrings as sentences, attaches comments to their statement, joins bracketed lines', () => {
    expect(displays(code, 'pkg/defaults.py')).toEqual([
      'Default settings.',
      'Every value can be overridden by an environment variable.',
      'import os',
      'DEFAULT_PORT = 8421 // TCP port the development server listens on.',
      'HEADERS = { "Server": "tinyserve", }',
      'def f(a, b=2):',
      'return a + b',
    ]);
  });

  it('gives offsets that cover the unit in the text (a statement with its comment)', () => {
    const port = splitIntoUnits(code, 'pkg/defaults.py').find((u) => u.display.startsWith('DEFAULT_PORT'))!;
    expect(code.slice(port.start, port.end)).toBe('# TCP port the development server listens on.\nDEFAULT_PORT = 8421');
  });
});

describe('splitIntoUnits for a code span that starts inside a docstring', () => {
  // A long class docstring cut by the chunker: the span opens on its middle lines.
  const piece = [
    '    :param cache_size: The size of the cache.  Per default this is ``400`` which means',
    '        that if more than 400 templates are loaded the loader will clean',
    '        out the least recently used template.',
    '    """',
    '',
    '    #: if this environment is sandboxed.',
    '    sandboxed = False',
  ].join('\n');

  it('reads the lines before the closing quotes as sentences, the rest as code', () => {
    expect(displays(piece, 'src/environment.py')).toEqual([
      '`cache_size`: The size of the cache.',
      'Per default this is `400` which means that if more than 400 templates are loaded the loader will clean out the least recently used template.',
      'sandboxed = False // : if this environment is sandboxed.',
    ]);
  });

  it('finds the end of the docstring on a line that holds text too', () => {
    const units = splitIntoUnits('    the cache is cleared."""\n    return self.cache\n', 'm.py');
    expect(units.map((u) => [u.kind, u.display])).toEqual([
      ['prose', 'the cache is cleared.'],
      ['code', 'return self.cache'],
    ]);
  });

  it('reads a span with no quotes at all as a docstring when its lines are prose', () => {
    const middle = [
      '        `cache_size`',
      '            The size of the cache.  Per default this is ``400`` which means',
      '            that if more than 400 templates are loaded the loader will clean',
      '            out the least recently used template.',
    ].join('\n');
    expect(splitIntoUnits(middle, 'src/environment.py').map((u) => [u.kind, u.display])).toEqual([
      ['prose', '`cache_size` The size of the cache.'],
      ['prose', 'Per default this is `400` which means that if more than 400 templates are loaded the loader will clean out the least recently used template.'],
    ]);
    // Code with a few prose-like lines (a long call's arguments) stays code.
    const code = ['result = compute(', '    first,', '    second', ')', 'if result:', '    emit(result)', 'log the outcome'].join('\n');
    expect(splitIntoUnits(code, 'm.py').every((u) => u.kind === 'code')).toBe(true);
  });

  it('keeps reading code when the quotes open a docstring or a string', () => {
    const opening = ['def f(x):', '    """', '    Doubles x.', '    """', '    return 2 * x'].join('\n');
    expect(displays(opening, 'm.py')).toEqual(['def f(x):', 'Doubles x.', 'return 2 * x']);
    const module = ['# SPDX-License-Identifier: Apache-2.0', '"""', 'Runs the demo.', '"""', 'import os'].join('\n');
    expect(displays(module, 'examples/demo.py')).toEqual(['Runs the demo.', 'import os']);
    const assigned = ['QUERY = """', 'SELECT 1', '"""'].join('\n');
    expect(splitIntoUnits(assigned, 'm.py').map((u) => u.kind)).toEqual(['code', 'code']);
    // Not Python: the quotes mean nothing special.
    expect(splitIntoUnits('a: 1\nb: """\n', 'conf.yaml').every((u) => u.kind === 'code')).toBe(true);
  });
});

describe('splitIntoUnits for docstrings', () => {
  // Docstrings are small RST documents: fields, sections, literal blocks and sessions.
  const source = [
    'def scale(value, factor=2):',
    '    """Multiplies a value. The factor',
    '    can be any number.',
    '',
    '    Example::',
    '',
    '        scale(3)',
    '',
    '    >>> scale(2, 5)',
    '    10',
    '',
    '    :param value: the number to scale.',
    '    :param factor: how much to scale it by',
    '        (two unless given).',
    '    :returns: the scaled value.',
    '    """',
    '    return value * factor',
    '',
    'def parse(text):',
    '    """Reads a number.',
    '',
    '    Args:',
    '        text (str): the text to read.',
    '    Returns:',
    '        int: the number it holds.',
    '    """',
  ].join('\n');

  it('makes each field, section entry and literal line its own unit, and drops section headings', () => {
    // Fields read as a person writes them: "`value`: …", "Returns: …".
    expect(displays(source, 'pkg/scale.py')).toEqual([
      'def scale(value, factor=2):',
      'Multiplies a value.',
      'The factor can be any number.',
      'Example::',
      'scale(3)',
      '>>> scale(2, 5) 10',
      '`value`: the number to scale.',
      '`factor`: how much to scale it by (two unless given).',
      'Returns: the scaled value.',
      'return value * factor',
      'def parse(text):',
      'Reads a number.',
      'text (str): the text to read.',
      'int: the number it holds.',
    ]);
  });

  it('marks docstring units, their opening sentence and what they say is returned', () => {
    const units = splitIntoUnits(source, 'pkg/scale.py');
    const role = (display: string) => units.find((u) => u.display === display);
    expect(role('Multiplies a value.')).toMatchObject({ doc: true, docRole: 'summary' });
    expect(role('Returns: the scaled value.')).toMatchObject({ doc: true, docRole: 'returns' });
    expect(role('int: the number it holds.')).toMatchObject({ docRole: 'returns', context: 'Returns' });
    expect(role('text (str): the text to read.')).toMatchObject({ context: 'Args' });
    expect(role('scale(3)')).toMatchObject({ kind: 'code', doc: true });
    expect(role('return value * factor')!.doc).toBeUndefined();
  });
});

describe('readableField', () => {
  it.each([
    [':param int flags: flags for re', '`flags`: flags for re'],
    [':param name: the name', '`name`: the name'],
    [':type name: str', '`name` type: str'],
    [':returns: the value', 'Returns: the value'],
    [':rtype: int', 'Return type: int'],
    [':raises KeyError: if missing', 'Raises `KeyError`: if missing'],
    [':raises: on failure', 'Raises: on failure'],
    [':meta private:', ':meta private:'],
    ['No field here: at all', 'No field here: at all'],
  ])('%s → %s', (field, readable) => {
    expect(readableField(field)).toBe(readable);
  });
});

describe('splitIntoUnits for docs', () => {
  const doc = [
    '# Configuration',
    '',
    '!!! note',
    '    Every setting has a default. Arguments win over the environment.',
    '',
    '| Setting | Default |',
    '|---|---|',
    '| port | `8421` |',
    '',
    '- first item',
    '  continues here.',
    '- second item',
    '',
    '```bash',
    'pip install tinyserve==0.3.1 \\',
    '  --no-deps',
    '```',
    '',
    'Section',
    '=======',
    '',
    'Run it like this::',
    '',
    '    app.run(port=9000)',
  ].join('\n');

  it('splits sentences, keeps table rows with their header as context, and reads fences and literal blocks as code', () => {
    const units = splitIntoUnits(doc, 'docs/guide.md');
    expect(units.map((u) => `${u.kind}: ${u.display}`)).toEqual([
      'prose: Every setting has a default.',
      'prose: Arguments win over the environment.',
      'prose: port | `8421`',
      'prose: first item continues here.',
      'prose: second item',
      'code: pip install tinyserve==0.3.1 --no-deps',
      'prose: Run it like this::',
      'code: app.run(port=9000)',
    ]);
    expect(units[2]!.context).toBe('Setting Default');
  });

  it('does not end a sentence at e.g., i.e., cf. or vs., and does at etc. before a capital', () => {
    const text = 'Reloading loses interpreter arguments (e.g. ``-u``) because it re-executes Python. Use one process, i.e. No forking. See cf. `Loader` too. Dates, names, etc. Then more.';
    expect(splitIntoUnits(text, 'docs/running.rst').map((u) => u.display)).toEqual([
      'Reloading loses interpreter arguments (e.g. `-u`) because it re-executes Python.',
      'Use one process, i.e. No forking.',
      'See cf. `Loader` too.',
      'Dates, names, etc.',
      'Then more.',
    ]);
    // "vs." keeps "Precision vs. Recall" whole; "Eg." is not "e.g." (no inner period) and ends its sentence.
    expect(splitIntoUnits('Precision vs. Recall matter. Eg. Two.', 'docs/a.md').map((u) => u.display)).toEqual(['Precision vs. Recall matter.', 'Eg.', 'Two.']);
  });

  it("reads a numbered item's marker as the start of the item, not as a sentence of its own", () => {
    const text = 'It needs:\n\n1. `kwargs` passed down through all modules.\n2. `MyModel` must contain `_supports_backend = True`. It is checked on load.\n';
    const units = splitIntoUnits(text, 'docs/models.md');
    expect(units.map((u) => u.display)).toEqual(['It needs:', '`kwargs` passed down through all modules.', '`MyModel` must contain `_supports_backend = True`.', 'It is checked on load.']);
    expect(units.map((u) => u.item === true)).toEqual([false, true, true, false]);
    // A number that ends a sentence still ends it.
    expect(splitIntoUnits('The limit is 2. Raise it with care.', 'docs/a.md').map((u) => u.display)).toEqual(['The limit is 2.', 'Raise it with care.']);
  });

  it('reads a line that starts with an RST role as prose, not as a field list entry', () => {
    const text = 'For tools that touch files, the\n:meth:`CliRunner.isolated_filesystem` method sets up an empty folder.\n\n:maxdepth: 2\n';
    expect(splitIntoUnits(text, 'docs/testing.rst').map((u) => u.display)).toEqual([
      'For tools that touch files, the `CliRunner.isolated_filesystem` method sets up an empty folder.',
    ]);
  });

  it('drops the directives of Sphinx domains as markup, but quotes the API object a directive documents', () => {
    const text = 'Filters\n-------\n\n.. jinja:filters:: jinja2.defaults.DEFAULT_FILTERS\n\n.. py:function:: render(name)\n\nRenders a template.\n';
    expect(splitIntoUnits(text, 'docs/templates.rst').map((u) => u.display)).toEqual(['function `render(name)`', 'Renders a template.']);
    // An API page lists its classes as autodoc directives: they are the page's list, not markup.
    const api = 'Loaders\n-------\n\n.. autoclass:: FileSystemLoader\n    :members: get_source\n\n.. autoclass:: PackageLoader\n\n.. autofunction:: select_autoescape\n\n.. note:: Loaders are cached.\n';
    const units = splitIntoUnits(api, 'docs/api.rst');
    expect(units.map((u) => u.display)).toEqual(['class `FileSystemLoader`', 'class `PackageLoader`', 'function `select_autoescape`', 'Loaders are cached.']);
    expect(units.slice(0, 3).every((u) => u.item === true && u.kind === 'prose')).toBe(true);
    expect(api.slice(units[0]!.start, units[0]!.end)).toBe('.. autoclass:: FileSystemLoader');
  });

  it('skips the page list of a toctree (and contents and index entries), which says nothing as a sentence', () => {
    const text = 'API Reference\n=============\n\nThis part documents the public API.\n\n.. toctree::\n   :maxdepth: 2\n\n   core\n   dates\n   messages/index\n\n.. index::\n   single: locale\n\nAfter the list.\n';
    expect(splitIntoUnits(text, 'docs/api/index.rst').map((u) => u.display)).toEqual(['This part documents the public API.', 'After the list.']);
  });

  it("quotes a note's words on the directive line as prose, with the lines that continue it", () => {
    const text = 'Certificates\n------------\n\n.. warning:: The private key *must* be unencrypted.\n   Encrypted keys are not supported.\n\n.. versionadded:: 2.1\n\n.. deprecated:: 17.1.0 Use `evolve` instead.\n';
    const units = splitIntoUnits(text, 'docs/advanced.rst');
    expect(units.map((u) => u.display)).toEqual(['The private key *must* be unencrypted.', 'Encrypted keys are not supported.', '2.1', '17.1.0 Use `evolve` instead.']);
    // The quote's span starts at the note's first word, not at the directive.
    expect(text.slice(units[0]!.start, units[0]!.end)).toBe('The private key *must* be unencrypted.');
  });

  it('treats CMakeLists.txt as code', () => {
    expect(splitIntoUnits('set(A 1)\nset(B 2)', 'x/CMakeLists.txt').map((u) => u.kind)).toEqual(['code', 'code']);
  });
});

describe('splitIntoUnits for a docs example', () => {
  it("reads a comment that is the example's printed output as code, and a comment that explains as prose", () => {
    const page = [
      'Search the tree::',
      '',
      ' first_link = soup.a',
      ' first_link',
      ' # <a class="sister" href="http://example.com/elsie" id="link1">Elsie</a>',
      '',
      ' # the first link of the page',
      '',
      ' soup.p["class"]',
      " # 'body strikeout'",
      '',
    ].join('\n');
    const kinds = Object.fromEntries(splitIntoUnits(page, 'docs/index.rst').map((u) => [u.display, u.kind]));
    expect(kinds['the first link of the page']).toBe('prose');
    expect(kinds['<a class="sister" href="http://example.com/elsie" id="link1">Elsie</a>']).toBe('code');
    expect(kinds["'body strikeout'"]).toBe('code');
  });

  it('keeps a Python file\'s comments that start with a bracket as prose: only docs examples print output', () => {
    expect(splitIntoUnits('x = 1\n\n# (a) the first case, [b] the second\n', 'pkg/mod.py').map((u) => u.kind)).toEqual(['code', 'prose']);
  });
});

describe('splitIntoUnits for docs sessions', () => {
  it('marks the lines a program printed after a prompt as output, and no line of a block without a prompt', () => {
    const doc = ['Try it:', '', '```pycon', '>>> total = add(', '...     2, 3)', '>>> total', '5', '```', '', '```console', '$ tool --version', 'tool 1.2', '```', '', '```python', 'def stub():', '    ...', 'stub()', '```', ''].join('\n');
    const code = splitIntoUnits(doc, 'docs/usage.md').filter((u) => u.kind === 'code');
    const outputs = code.filter((u) => u.output).map((u) => u.display);
    // `...` continues the typed statement; `5` and `tool 1.2` were printed; the stub's `...` opens no session.
    expect(outputs).toEqual(['5', 'tool 1.2']);
    expect(code.map((u) => u.display)).toContain('def stub():');
  });
});
