export function SupportCenterPage() {
  return <h1>SupportCenter</h1>;
}
