// Built-in examples for the playground: short states, so a CPU answers them in about a second.
export const EXAMPLES = {
  tickets: {
    title: "Ticket routing",
    state: "Hi, I was charged twice for order #4411. Please refund one charge today.",
    questions: [
      { id: "billing", type: "noul", instructions: "Is this message about billing?" },
      {
        id: "team", type: "choice", instructions: "Which team should handle it?",
        options: [
          { name: "billing", description: "" },
          { name: "shipping", description: "" },
          { name: "technical support", description: "" },
        ],
      },
      { id: "urgency", type: "score", instructions: "How urgent is it?", levels: ["can wait", "this week", "today", "immediately"] },
    ],
  },
  phishing: {
    title: "Phishing",
    state: "From: security@paypa1-support.com\nSubject: Your account is locked\n\n" +
      "We detected unusual activity. Verify your identity within 24 hours at http://paypa1-verify.co/login " +
      "or your account will be closed.",
    questions: [
      { id: "phishing", type: "noul", instructions: "Is this email a phishing attempt?" },
      {
        id: "tactic", type: "choice", instructions: "Which trick does the email rely on most?",
        options: [
          { name: "fake login link", description: "a link to a look-alike sign-in page" },
          { name: "malicious attachment", description: "" },
          { name: "gift or prize", description: "" },
          { name: "none", description: "an ordinary, legitimate email" },
        ],
      },
      { id: "risk", type: "score", instructions: "How risky is it to follow this email?", levels: ["harmless", "suspicious", "dangerous"] },
    ],
  },
  logs: {
    title: "Log triage",
    state: "2026-11-30T02:41:18Z ERROR db.pool: connection refused (host=10.0.3.7:5432) after 3 retries; " +
      "512 requests failed in the last minute",
    questions: [
      { id: "page_someone", type: "noul", instructions: "Should someone be paged now?" },
      {
        id: "component", type: "choice", instructions: "Which component is failing?",
        options: [
          { name: "database", description: "" },
          { name: "network", description: "" },
          { name: "application code", description: "" },
          { name: "disk", description: "" },
        ],
      },
      { id: "severity", type: "score", instructions: "How severe is this?", levels: ["info", "warning", "error", "critical"] },
    ],
  },
};
