import { fileRunsOf, type Chunk } from '@rag/core';

/**
 * A trailing release in a folder name (`vllm-0.10.1`, `flask_2.2`, `requests-v2`): a
 * checkout or an unpacked source release is named after its project and version.
 */
const RELEASE_SUFFIX = /[-_.]v?\d+(\.\d+)*([-_.]?[a-z]+\d*)?$/i;

/**
 * A word of a question as a project name could be written (`vLLM`, `python-dateutil`),
 * standing on its own: not part of a dotted name or path (`vllm.LLM`, `click/core.py`),
 * which spells code rather than the project.
 */
const WORD = /(?<![\w./-])[A-Za-z0-9][A-Za-z0-9_-]*(?![\w/-]|\.\w)/g;

const NO_PROJECTS: readonly number[] = Object.freeze([]);

/** A Python source file: the files whose folders can hold a project's package. */
const PYTHON_FILE = /\.pyi?$/;

/** What a question names of the corpus's projects (see `CorpusProjects.scope`). */
export interface QueryScope {
  /** The question without the project names (unchanged when it names none). */
  text: string;
  /** Project numbers (1-based, ascending) the question names. */
  projects: readonly number[];
}

/** What a name is compared as: lowercase, `-` and `_` alike (`python-dateutil`, `python_dateutil`). */
function normalName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** The project a top-level folder is named for: its name without a release suffix. */
export function projectNameOf(folder: string): string {
  return normalName(folder.replace(RELEASE_SUFFIX, ''));
}

/**
 * The projects of a corpus that holds several repositories side by side. A top-level folder
 * is a project when it holds a Python package of its own name (`click/click/`,
 * `flask/src/flask/`, `vllm-0.10.1/vllm/`): that is how a checkout of a Python project is
 * laid out, while a folder of one repository (`docs/`, `tests/`, `vllm/` itself) holds no
 * folder of its own name. A corpus indexed at a repository's root has no projects, and
 * nothing here changes its searches.
 */
export class CorpusProjects {
  /** Project names, index = project number − 1. */
  readonly names: readonly string[];
  /** Per chunk its project number (1-based), 0 for none. */
  readonly #projectOf: Uint16Array;

  constructor(chunks: readonly Chunk[]) {
    const folderOf = (path: string): string | undefined => {
      const slash = path.indexOf('/');
      return slash < 0 ? undefined : path.slice(0, slash);
    };
    const projects = new Map<string, number>();
    const names: string[] = [];
    // A folder's project name, worked out once for all its files.
    const folderNames = new Map<string, string>();
    // A project is a fact of a file: look at each file once, not at each of its chunks.
    const { starts, files } = fileRunsOf(chunks);
    for (const { file_path } of files) {
      // Only a Python file makes its folder a project: most of a corpus's other files are
      // passed over before their paths are taken apart.
      if (!PYTHON_FILE.test(file_path)) continue;
      const folder = folderOf(file_path);
      if (folder === undefined || projects.has(folder)) continue;
      const parts = file_path.split('/');
      if (parts.length < 3) continue;
      let name = folderNames.get(folder);
      if (name === undefined) folderNames.set(folder, (name = projectNameOf(folder)));
      const packageDir = parts[1] === 'src' && parts.length > 3 ? parts[2]! : parts[1]!;
      if (name === '' || normalName(packageDir) !== name) continue;
      names.push(name);
      projects.set(parts[0]!, names.length);
    }
    this.names = names;
    this.#projectOf = new Uint16Array(chunks.length);
    if (names.length > 0) {
      // A folder's files follow one another (files come in path order): its project is looked
      // up again only where the folder changes.
      let folder: string | undefined;
      let project = 0;
      for (let r = 0; r < files.length; r++) {
        const path = files[r]!.file_path;
        if (folder === undefined || !path.startsWith(folder) || path.charCodeAt(folder.length) !== 47) {
          folder = folderOf(path);
          project = folder === undefined ? 0 : (projects.get(folder) ?? 0);
        }
        if (project !== 0) this.#projectOf.fill(project, starts[r]!, starts[r + 1]!);
      }
    }
  }

  /**
   * The projects `query` names and the query without their names. A project's name in a
   * question says where to look, not what to match: `requests` or `click` occurs all over
   * its own project's code and docs, so as a search word it lifts whatever repeats it most.
   * The name is left in place when it is all the question says, and when the question names
   * several projects.
   */
  scope(query: string): QueryScope {
    if (this.names.length === 0) return { text: query, projects: NO_PROJECTS };
    const projects: number[] = [];
    const text = query.replace(WORD, (word) => {
      const p = this.names.indexOf(normalName(word)) + 1;
      if (p === 0) return word;
      if (!projects.includes(p)) projects.push(p);
      return ' ';
    });
    if (projects.length === 0) return { text: query, projects: NO_PROJECTS };
    // Naming two projects ("how does vllm load a transformers model?") makes each name part
    // of what is asked: both stay words, and both projects are in scope.
    const keep = projects.length > 1 || !/[A-Za-z0-9]/.test(text);
    return { text: keep ? query : text, projects: projects.sort((a, b) => a - b) };
  }

  /** Each chunk's project number (0 for none), by chunk id: not to be written. */
  get chunkProjects(): Uint16Array {
    return this.#projectOf;
  }

  /** Chunk `d`'s project number, 0 for none. */
  projectOf(d: number): number {
    return this.#projectOf[d]!;
  }
}
