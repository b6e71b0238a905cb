import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME, TEAM } from '../../config/site';

/** Meet the team: three team cards with links. */
export function AboutPage() {
  return (
    <>
      <Typography variant="h1" component="h1" gutterBottom>
        Meet the team
      </Typography>
      <Typography paragraph>
        {PRODUCT_NAME} is run by a small group of volunteers and a large community of station
        owners. These are the people who started it and keep the firmware, the server and the web
        site going.
      </Typography>
      <Grid container spacing={2}>
        {TEAM.map((member) => (
          <Grid key={member.name} size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" component="article" sx={{ height: '100%' }}>
              <CardContent>
                <Avatar sx={{ mb: 1.5, bgcolor: 'primary.main' }} aria-hidden="true">
                  {member.name.slice(0, 1).toUpperCase()}
                </Avatar>
                <Typography variant="h3" component="h2">
                  {member.name}
                </Typography>
                <Typography color="text.secondary" gutterBottom>
                  {member.role}
                </Typography>
                <Typography variant="body2">{member.bio}</Typography>
              </CardContent>
              <CardActions>
                {member.links.map((link) => (
                  <Button
                    key={link.href}
                    size="small"
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${member.name} on ${link.label}`}
                  >
                    {link.label}
                  </Button>
                ))}
              </CardActions>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
