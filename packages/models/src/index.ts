export {
  defaultCacheDir,
  DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS,
  DEFAULT_MODEL_CACHE_DIR,
  DEFAULT_REMOTE_HOST,
  downloadsAllowedByEnvironment,
  MODEL_DTYPE_FILE_SUFFIX,
  MODEL_DTYPES,
  OFFLINE_ENV_VARS,
  REQUIRED_MODEL_FILES,
  type ModelDtype,
} from './conventions.js';
export { checkModelFolder, isHubModelId, isModelOnDisk, locateModel, onnxFile, type FolderCheck, type ModelLocation, type ModelLocationOptions } from './locate.js';
export {
  describeLoadFailure,
  fetchWithTimeout,
  fingerprintModelFolder,
  loadTransformers,
  withTransformersEnvironment,
  type Transformers,
  type TransformersEnvironmentPatch,
} from './transformers-env.js';
