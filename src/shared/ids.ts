/** Question ids are the forum's own ids, kept as strings (AskUbuntu "123", SemEval "Q268_R4"). */
export type QuestionId = string;
