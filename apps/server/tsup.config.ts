import { appConfig } from '../../tsup.shared.js';

export default appConfig({ server: 'src/server.ts' });
