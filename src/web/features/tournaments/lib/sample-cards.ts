/** The hard-coded sample values of the mock tournament flow (docs/product.md#screens /SelectedTournament). */
export interface SampleCard {
  title: string;
  description: string;
  points: number;
  timeLimit: string;
}

export const SAMPLE_CARDS: readonly SampleCard[] = [
  {
    title: 'Describe Lagos traffic to a visitor',
    description: 'Paint the picture. Funny, poetic or painfully honest.',
    points: 100,
    timeLimit: '2 minutes',
  },
  {
    title: 'Invent a new Naija slang word',
    description: 'Give the word and what it means.',
    points: 150,
    timeLimit: '2 minutes',
  },
  {
    title: 'Your perfect Sunday in one sentence',
    description: 'From the first cup of tea to the last episode.',
    points: 150,
    timeLimit: '2 minutes',
  },
  {
    title: 'Pitch a Nollywood movie',
    description: 'Title and plot. Make us want to watch it.',
    points: 200,
    timeLimit: '3 minutes',
  },
  {
    title: 'Advice for your younger self',
    description: 'One line you wish you had heard earlier.',
    points: 250,
    timeLimit: '3 minutes',
  },
];
