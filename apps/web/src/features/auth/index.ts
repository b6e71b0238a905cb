export { LoginLinkView, LOGIN_LINK_ERROR } from './components/LoginLinkView';
