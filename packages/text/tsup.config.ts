import { libraryConfig } from '../../tsup.shared.js';

export default libraryConfig(['src/index.ts', 'src/internals.ts', 'src/background.ts']);
