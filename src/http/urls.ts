/** Kept for src/api/git until it imports src/model/urls (URLs and node ids are the model's). */
export { nodeId, Urls } from '../model/urls';
