export { BOARDS, LEADERBOARD_TEXTS } from './components/LeaderboardTable';
