export { LoginLinkView, LOGIN_LINK_ERROR } from './components/LoginLinkView';
export {
  readStoredExpiry,
  useStoredCountdown,
  writeStoredExpiry,
  type StoredCountdown,
} from './lib/storedExpiry';
