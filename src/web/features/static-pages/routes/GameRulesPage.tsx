export function GameRulesPage() {
  return <h1>GameRules</h1>;
}
