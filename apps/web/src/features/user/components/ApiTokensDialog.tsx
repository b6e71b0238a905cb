// Personal API tokens in the User Console: name and create one (shown once, with a copy button),
// see each token's name, first characters, creation and last use, and revoke it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_TOKEN_NAME_MAX_CHARS,
  API_TOKENS_PER_USER,
  type ApiToken,
  type ApiTokenCreated,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import type { Session } from '../../../lib/session';
import { CopyLine } from './CredentialsDialog';
import { createApiToken, revokeApiToken } from '../api/userActions';
import { apiTokensQueryKey, useApiTokens } from '../api/userQueries';

export const TOKEN_TEXTS = {
  title: 'API tokens',
  intro:
    'Scripts and dashboards that read the public API can send a token as "Authorization: Bearer TOKEN" to get a rate limit of their own. A token only identifies your reads: it gives no access to your account or stations.',
  name: 'Token name',
  create: 'Create token',
  shownOnce: 'Copy this token now: it is not shown again.',
  none: 'No tokens yet.',
  revoke: 'Revoke',
  revokeAsk: 'Scripts using this token stop working at once.',
  loadFailed: 'Could not load your tokens.',
  failed: 'Something went wrong. Please try again later.',
} as const;

function errorText(error: unknown): string {
  return error instanceof ApiError && error.status < 500 ? error.message : TOKEN_TEXTS.failed;
}

function TokenRow(props: { token: ApiToken; onRevoke(): void; revoking: boolean }) {
  const { token, onRevoke, revoking } = props;
  const [asking, setAsking] = useState(false);
  return (
    <ListItem
      divider
      secondaryAction={
        asking ? (
          <Stack direction="row" spacing={1}>
            <Button size="small" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button size="small" color="error" disabled={revoking} onClick={onRevoke}>
              {`${TOKEN_TEXTS.revoke} ${token.name}`}
            </Button>
          </Stack>
        ) : (
          <Button size="small" color="error" onClick={() => setAsking(true)}>
            {TOKEN_TEXTS.revoke}
          </Button>
        )
      }
    >
      <ListItemText
        sx={{ pr: asking ? 28 : 10 }}
        primary={
          <>
            {token.name}{' '}
            <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace' }}>
              {token.prefix}…
            </Typography>
          </>
        }
        secondary={
          asking
            ? TOKEN_TEXTS.revokeAsk
            : `Created ${formatDateTime(token.createdAt)} · last used ${formatDateTime(token.lastUsedAt)}`
        }
      />
    </ListItem>
  );
}

export function ApiTokensDialog(props: {
  open: boolean;
  onClose(): void;
  session: Session | null;
  userId: string;
}) {
  const { open, onClose, session, userId } = props;
  const queryClient = useQueryClient();
  const queryKey = apiTokensQueryKey(userId, session);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const tokens = useApiTokens(userId, session, open);
  const create = useMutation({
    mutationFn: (tokenName: string) => createApiToken(userId, session, tokenName),
    onSuccess: (token) => {
      setCreated(token);
      setName('');
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeApiToken(userId, session, id),
    onSuccess: (_answer, id) => {
      if (created?.id === id) setCreated(null);
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  const close = () => {
    setCreated(null);
    create.reset();
    revoke.reset();
    onClose();
  };
  const trimmed = name.trim();
  const full = (tokens.data?.length ?? 0) >= API_TOKENS_PER_USER;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed && !create.isPending) create.mutate(trimmed);
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="api-tokens-title" fullWidth maxWidth="sm">
      <DialogTitle id="api-tokens-title">{TOKEN_TEXTS.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {TOKEN_TEXTS.intro}
          </Typography>
          {created && (
            <Alert severity="success">
              <Typography variant="body2">{TOKEN_TEXTS.shownOnce}</Typography>
              <CopyLine label="Token" value={created.token} copyable />
            </Alert>
          )}
          <Stack component="form" direction="row" spacing={1} onSubmit={submit} noValidate>
            <TextField
              label={TOKEN_TEXTS.name}
              size="small"
              value={name}
              onChange={(e) => setName(e.target.value)}
              slotProps={{ htmlInput: { maxLength: API_TOKEN_NAME_MAX_CHARS } }}
              disabled={!session || full}
              helperText={full ? `At most ${API_TOKENS_PER_USER} tokens.` : ' '}
              sx={{ flex: 1 }}
            />
            <Button
              type="submit"
              variant="contained"
              disabled={!session || !trimmed || full || create.isPending}
              sx={{ alignSelf: 'flex-start' }}
            >
              {TOKEN_TEXTS.create}
            </Button>
          </Stack>
          {create.isError && <Alert severity="error">{errorText(create.error)}</Alert>}
          {revoke.isError && <Alert severity="error">{errorText(revoke.error)}</Alert>}
          {tokens.isError ? (
            <Alert severity="error">{TOKEN_TEXTS.loadFailed}</Alert>
          ) : tokens.data?.length === 0 ? (
            <Typography>{TOKEN_TEXTS.none}</Typography>
          ) : (
            <List dense aria-label="Your API tokens">
              {(tokens.data ?? []).map((t) => (
                <TokenRow
                  key={t.id}
                  token={t}
                  revoking={revoke.isPending}
                  onRevoke={() => revoke.mutate(t.id)}
                />
              ))}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
