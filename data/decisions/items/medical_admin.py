"""Medical practice administration: routing patient messages, spotting red flags, urgency, requests."""

from ._kit import choice, it, noul, score

DOMAIN = "medical_admin"
PREFIX = "medical"

CLINICIAN = noul(
    "Does this patient message need to be seen by a clinician (nurse, pharmacist or doctor), rather than being "
    "handled by reception or admin staff alone?"
)
EMERGENCY = noul(
    "Does this message describe a situation that needs emergency care right now (call 999 or go to A&E)?",
    true="Red-flag symptoms such as chest pain with sweating or breathlessness, stroke signs, severe bleeding, "
    "anaphylaxis, suicidal intent with a plan, or unresponsiveness.",
    false="Anything that can safely wait for a same-day or routine appointment.",
)
REPEAT = noul("Is the patient asking for a repeat prescription of a medicine they already take?")
THIRD_PARTY = noul(
    "Is the sender asking for someone else's medical information (not their own, and not for their own child "
    "under 13)?"
)
ACTION = noul("Does this letter ask the GP practice to do something?")

ROUTE = choice(
    "Which team at the practice should handle this message?",
    {
        "appointments": "booking, changing or cancelling appointments",
        "prescriptions": "repeat prescriptions, pharmacy nominations, medication supply",
        "test_results": "asking for or about results of blood tests, scans, swabs",
        "medical_records": "copies of records, access requests, letters, forms and reports",
        "clinical_triage": "new or changing symptoms that a clinician should assess",
        "registration": "joining or leaving the practice, address and contact details changes",
    },
)
SLOT = choice(
    "What kind of appointment should reception offer?",
    {
        "routine": "a routine GP appointment within two weeks",
        "nurse": "a practice nurse appointment (dressings, vaccines, smears, blood pressure checks, injections)",
        "same_day": "an urgent same-day GP appointment or call",
        "telephone": "a telephone consultation is enough",
        "none": "no appointment needed",
    },
)
URGENCY = score(
    "How urgently does this patient need to be seen?",
    [
        "routine: within two weeks",
        "soon: within two or three days",
        "same day",
        "emergency: now (999 or A&E)",
    ],
)
REFERRAL = score(
    "Rate how complete this referral letter is. A complete referral states the reason for referral, the "
    "relevant history and examination findings, current medications, allergies, and the urgency.",
    [
        "missing most of the required information",
        "missing two or more required items",
        "missing one required item",
        "complete",
    ],
)

LONG_PORTAL_THREAD = """\
Patient messaging portal — Beechwood Surgery — thread #PM-44120
Patient: Mr Graham Holt, 67. Registered GP: Dr A. Mensah.

[3 weeks ago, Tue 14:10] Patient: Hello, could I book my flu jab please? I'm over 65. Any weekday morning.

[3 weeks ago, Tue 15:32] Reception (Amira): Hi Graham, our Saturday flu clinic is the easiest — 5th October between
9:00 and 12:00, no appointment needed, just turn up. If you'd prefer a weekday, Nurse Priya has a slot on Wednesday
9th at 10:40. Let me know.

[3 weeks ago, Tue 16:05] Patient: The Saturday clinic is fine, I'll come along with my wife. Does she need to
book separately? She's 64.

[3 weeks ago, Tue 16:20] Reception (Amira): She's eligible too if she has a long-term condition, otherwise she'll
be invited from next month. Ask her to bring her details on the day and the nurse will check.

[2 weeks ago, Sat 11:02] Patient: Thanks, we both had our jabs this morning, very efficient! Just a sore arm.

[2 weeks ago, Mon 09:40] Patient: Sorry, forgot to ask on Saturday — I got a letter about the bowel screening
kit. Do I send it back to you or to the address on the envelope?

[2 weeks ago, Mon 10:15] Reception (Tasha): Hi Graham, it goes straight back to the screening hub in the prepaid
envelope, not to us. The results will come to you and to us by post.

[Mon 08:14] Patient: Good morning. I'd like to order my usual repeat prescriptions please — amlodipine 5 mg,
atorvastatin 20 mg and the omeprazole. I've got about four days left of the amlodipine. Could they go to the
Boots on the high street as usual? Many thanks, Graham.

[Mon 10:02] Reception (Tasha): Hi Graham, thanks for your request. I've passed it to the prescriptions team. It
usually takes two working days, so it should be ready at Boots from Wednesday afternoon. Your blood pressure review
is also due — would you like me to book it with the nurse?

[Mon 11:40] Patient: Yes please, any morning except Thursday. I play bowls on Thursdays!

[Mon 12:05] Reception (Tasha): Lovely — I've booked you with Nurse Priya on Tuesday 18th at 9:20. Please bring a
list of any home blood pressure readings if you have a monitor.

[Mon 12:30] Patient: Perfect, I do have one. My readings have been about 135/85 mostly. See you on the 18th.

[Wed 09:15] Patient: Hello again, sorry to bother you. Boots say they haven't received the omeprazole. The other
two were there. Could you check?

[Wed 11:48] Prescriptions (Daniel): Hi Graham, apologies. The omeprazole was due a medication review so it needed
a doctor's sign-off. Dr Mensah has now approved it for another 6 months and it's been sent to Boots. It should be
ready tomorrow.

[Wed 12:01] Patient: Thank you Daniel, much appreciated.

[Fri 16:20] Patient: Hi, one more thing, not urgent. My wife says I should mention that I've been getting a bit
more breathless walking up the hill to the bowls club over the last couple of weeks. I put it down to the weather.
Could the nurse check my chest when I see her on the 18th?

[Fri 16:45] Reception (Tasha): Thanks Graham, I've added a note for Nurse Priya. If the breathlessness gets worse
before then, please call us or NHS 111.

[Sat 07:52] Patient: Sorry to message on a Saturday, I know you're closed. I had a bad night. I woke up around 4am
feeling very short of breath and I had to sit on the edge of the bed to get my breath back. It's a tight, heavy
feeling across the middle of my chest that goes into my left arm and jaw, and I've been sweating even though the
house is cold. It's been going on for about forty minutes now and hasn't really eased. My wife is at her sister's
this weekend. I don't want to make a fuss — shall I just come in on Monday instead of waiting for the 18th? Graham.

[Auto-reply] Thank you for your message. The practice is closed until Monday 08:00. This inbox is not monitored at
weekends. If you need medical help urgently, call NHS 111. In an emergency, call 999.
"""

LONG_DISCHARGE = """\
DISCHARGE SUMMARY — St Aldhelm's Hospital NHS Trust — Department of General Medicine
Patient: Mrs Eileen Forsyth   DOB: 14/03/1941   NHS No: 485 777 3456
GP: Dr R. Chaudhry, Millbrook Medical Centre
Admitted: 02/09/2024 via Emergency Department   Discharged: 09/09/2024   Consultant: Dr H. Oyelaran

Presenting complaint
Two-day history of increasing confusion, reduced oral intake and a fall at home (no head injury). Found by her
daughter sitting on the kitchen floor, unable to get up. No loss of consciousness reported.

Diagnosis
1. Urinary tract infection with delirium (resolved).
2. Acute kidney injury stage 1, pre-renal (resolved; creatinine 142 on admission, 88 on discharge).
3. Mechanical fall secondary to the above. No fracture on X-ray of left hip and pelvis.

Past medical history
Hypertension; type 2 diabetes (diet-controlled); osteoarthritis of both knees; cataract surgery (right eye) 2019;
mild cognitive impairment noted by memory clinic in 2023.

Observations and investigations
On admission: temperature 38.1 °C, pulse 104, blood pressure 98/56, respiratory rate 20, oxygen saturation 95% on
air. Urine dipstick: leucocytes +++, nitrites positive. Bloods on admission: WCC 14.2, CRP 118, sodium 133,
potassium 4.9, urea 11.8, creatinine 142 (baseline 84 in March 2024). Glucose 8.1. CT head not performed (no head
injury, no focal neurology). Chest X-ray: no consolidation. ECG: sinus tachycardia, no acute changes.
On discharge: afebrile for 4 days, pulse 78, blood pressure 131/74, WCC 8.1, CRP 12, sodium 138, creatinine 88.
Abbreviated Mental Test Score 8/10 on discharge (6/10 on admission).

Course in hospital
Treated with IV fluids and IV then oral antibiotics (co-amoxiclav, then nitrofurantoin, guided by urine culture
showing E. coli sensitive to nitrofurantoin). Confusion improved by day 3 and she was back to her baseline
(per daughter) by day 5. Seen by physiotherapy: mobilising independently with a walking frame, managing stairs with
one rail and supervision. Seen by occupational therapy: home assessment not required; a raised toilet seat and
perching stool have been ordered. Her ramipril was held on admission because of the acute kidney injury and low
blood pressure (systolic 98 on admission). Blood pressure on the ward after recovery has been 122–138 systolic
without ramipril.

Medications on discharge
- Nitrofurantoin 50 mg four times daily — 2 more days to complete a 7-day course (supplied)
- Paracetamol 1 g four times daily as required
- Amlodipine 5 mg once daily (unchanged)
- Ramipril 5 mg once daily — STOPPED during admission, see actions below
- Adcal-D3 one tablet twice daily (new; started for bone protection after the fall)

Allergies: Penicillin — listed as "rash" in GP record, but she tolerated co-amoxiclav on this admission without any
reaction. Please review this allergy label.

Follow-up arranged by the hospital
Falls clinic appointment will be sent by post. No hospital follow-up otherwise.

Actions for GP
1. Please repeat U&Es (kidney function) in 1–2 weeks to confirm renal function remains stable.
2. Please review blood pressure in 2–4 weeks and consider whether ramipril should be restarted, at a lower dose if
   needed.
3. Please review the penicillin allergy label in the light of the above.
4. Consider referral to the memory clinic for re-assessment, as the daughter reports a gradual decline over the
   last six months in addition to this episode of delirium.

Information given to patient and family
Diagnosis and medication changes explained to Mrs Forsyth and her daughter, who will collect her prescriptions and
stay with her for the first few nights. Advised to seek medical help if confusion returns, she develops a fever or
pain passing urine, or has another fall.

Equipment and services
Raised toilet seat and perching stool: ordered by OT, delivery expected within 5 working days.
Care package: not required; daughter to stay for the first few nights, then son visiting daily.
Community nursing: not required.

Signed: Dr L. Marsh, FY2, on behalf of Dr H. Oyelaran, Consultant Physician
"""

LONG_REFERRAL = """\
REFERRAL — Ashgrove Family Practice to Rheumatology Outpatients, Fernhill University Hospital
Date: 21 October 2024
Urgency: Routine
Patient: Ms Layla Haddad, DOB 02/07/1988, NHS No. 943 476 5919
Address: Flat 3, 18 Kingfisher Way, Fernhill FH2 7QD. Telephone: 07700 900 264. Interpreter not required.

Dear Colleague,

Reason for referral
I would be grateful if you could see this 36-year-old primary school teacher with a five-month history of
inflammatory-sounding joint pain affecting both hands and wrists, with early-morning stiffness lasting around an hour
and a half, and a query of inflammatory arthritis.

History
Symptoms began gradually in May, initially in the right wrist, then spreading to the small joints of both hands.
She describes swelling of the knuckles, worse in the mornings, and difficulty writing on the whiteboard and
opening jars. Stiffness improves with activity and with ibuprofen. She has had two episodes of painful swelling of
the left knee lasting about a week each. There is no history of rash, psoriasis, mouth ulcers, dry eyes or mouth,
Raynaud's, diarrhoea or recent infection. No fevers or weight loss. Her mother has rheumatoid arthritis. She is a
non-smoker and drinks alcohol occasionally. She is not currently planning a pregnancy but would like advice about
medication and pregnancy in future.

Examination (15/10/2024)
Synovitis of the 2nd and 3rd MCP joints bilaterally and of the right wrist; tender left 2nd PIP joint. Squeeze test
positive in both hands. Left knee: small effusion, full range of movement. No skin or nail changes. No nodules.
Chest clear, BMI 24.

Functional impact
She has had to stop playing the piano, which she did weekly, and finds buttons and zips difficult in the mornings.
Sleep is disturbed by hand pain two or three nights a week. She scores her overall pain at 6/10 on most days.

Investigations
CRP 24 mg/L (normal < 5); ESR 38 mm/h. Rheumatoid factor positive (62 IU/mL). Anti-CCP antibodies pending. FBC
normal apart from a mild normocytic anaemia (Hb 114 g/L). U&Es and LFTs normal. Hand and foot X-rays requested,
awaiting appointment.

Family history
Mother: rheumatoid arthritis, diagnosed in her forties, treated with methotrexate. Maternal aunt: hypothyroidism.
Father: type 2 diabetes. No family history of psoriasis or inflammatory bowel disease.

Previous referrals
None to rheumatology. Seen by physiotherapy in 2021 for a running-related knee injury, fully resolved.

Past medical history
Asthma in childhood, no inhalers for 10 years. Appendicectomy aged 14.

Current medications
Ibuprofen 400 mg three times daily with food, as needed (started September 2024)
Omeprazole 20 mg once daily (gastroprotection, started September 2024)
Combined oral contraceptive pill (Microgynon 30)

Management so far
I have explained the possible diagnosis and given her written information from Versus Arthritis. I have not
started steroids, so as not to mask findings before your assessment. I've suggested she contact us if her symptoms
worsen significantly before she is seen.

Questions from the patient
She asked how long the wait for rheumatology is likely to be, whether she should stop yoga in the meantime
(I advised continuing as comfort allows), and whether the condition could affect her ability to work. She would
value a conversation about treatment options and their effect on future pregnancy plans.

Examination of other systems
Cardiovascular and respiratory examination normal. No lymphadenopathy. Eyes: no redness. Spine: full range of
movement, no sacroiliac tenderness. Feet: mild tenderness on squeezing the left forefoot, no visible swelling.

Social
Lives with her partner. Works full time; currently managing at work but finding it difficult. Keen to continue
exercising (swimming, yoga).

Safety-netting
She knows to contact us or NHS 111 if she develops a hot, very swollen single joint, fever, or new symptoms such as
rash or breathlessness. I will review her in four weeks with the anti-CCP result, and sooner if needed. Her sick
note is not required at present.

Thank you for seeing her. Please do not hesitate to contact me if you need any further information.

Yours sincerely,

Dr Sophie Abara, GP Partner, Ashgrove Family Practice
GMC 7042198
"""

ITEMS = [
    # ---- needs a clinician? ------------------------------------------------------------------------------
    it(CLINICIAN, "Hi, can I change my appointment on Thursday from 10:30 to any time in the afternoon? Thanks, Jan",
       False),
    it(CLINICIAN, "My son (7) has had a temperature of 38.9 since last night and now has a rash on his tummy that "
                  "doesn't fade when I press a glass on it.", True),
    it(CLINICIAN, "I've moved house — new address is 22 Ferndale Road, Hove BN3 6EQ. Could you update my records?",
       False),
    it(CLINICIAN, "Since starting the new blood pressure tablets two weeks ago my ankles have swollen up quite a bit. "
                  "Is that normal?", True),
    it(CLINICIAN, "Could I have a copy of my last letter from the hospital for my insurance claim?", False),
    it(CLINICIAN, "I've run out of my inhaler and the pharmacy says the prescription has expired. I use it most days "
                  "and I'm a bit wheezy this evening.", True, amb=True),
    it(CLINICIAN, "What time does the surgery open on Saturday for the flu clinic?", False),
    it(CLINICIAN, "I'd like to book my smear test — I got the reminder letter last week.", False),
    # ---- emergency? -------------------------------------------------------------------------------------
    it(EMERGENCY, "My husband's face has dropped on one side and his speech is slurred — it started 20 minutes ago.",
       True),
    it(EMERGENCY, "I've had a sore throat for three days and it hurts to swallow. No fever.", False),
    it(EMERGENCY, "My daughter ate a cashew at a party and now her lips are swelling and she's struggling to breathe.",
       True),
    it(EMERGENCY, "I twisted my ankle playing football yesterday, it's swollen and bruised but I can walk on it.",
       False),
    it(EMERGENCY, "My back has been aching for a week after gardening. Paracetamol helps a bit.", False),
    it(EMERGENCY, "I've got a crushing pain in my chest going down my left arm and I feel clammy and sick.", True),
    it(EMERGENCY, "I've had diarrhoea since yesterday, drinking plenty of water, feel washed out.", False),
    it(EMERGENCY, "I've had a bad headache for two days, like my usual migraines, the tablets are taking the edge "
                  "off.", False),
    it(EMERGENCY, "I fell off a ladder an hour ago and hit my head; I was knocked out for a minute and I've been sick "
                  "twice since.", True),
    it(EMERGENCY, "I've been feeling low for months and sometimes think everyone would be better off without me, but "
                  "I'd never act on it. Can I talk to someone?", False, amb=True),
    it(EMERGENCY, LONG_PORTAL_THREAD, True),
    # ---- repeat prescription? ------------------------------------------------------------------------------
    it(REPEAT, "Please can I order my levothyroxine 100mcg and my sertraline 50mg. Usual pharmacy. Thanks.", True),
    it(REPEAT, "Can I get something for hay fever? It's really bad this year and I haven't had anything before.",
       False),
    it(REPEAT, "I need more of my epipens, one has expired and the other was used last month.", True),
    it(REPEAT, "The chemist gave me 28 tablets instead of 56 last time, can you check what was prescribed?", False,
       amb=True),
    it(REPEAT, "Could you send my usual contraceptive pill to the pharmacy near my new work? It's the Lloyds on "
               "Market Street.", True),
    # ---- third-party request? ----------------------------------------------------------------------------------
    it(THIRD_PARTY, "Hi, I'm calling about my husband's blood test results from last week, can you tell me what they "
                    "said? He's at work.", True),
    it(THIRD_PARTY, "Could you tell me the results of my own cholesterol test please? Date of birth 04/11/1975.",
       False),
    it(THIRD_PARTY, "My 5-year-old had a urine test on Monday. Are the results back?", False),
    it(THIRD_PARTY, "I'm the manager at Oakhill Care Home. Can you email me a list of all our residents' "
                    "medications?", True, amb=True),
    it(THIRD_PARTY, "My 16-year-old daughter saw the nurse yesterday, what was it about?", True),
    # ---- letter asks for action? -------------------------------------------------------------------------------
    it(ACTION, "Dermatology clinic letter: Seen today. The lesion on the left forearm is a seborrhoeic keratosis, "
               "benign. Reassured. Discharged back to your care with no further action needed.", False),
    it(ACTION, "Cardiology: Echo shows mild LV impairment. Please uptitrate bisoprolol to 5 mg and check U&Es in "
               "two weeks.", True),
    it(ACTION, "Orthopaedics: Patient listed for right total knee replacement; anticipated wait 9 months. We will "
               "write with a date.", False),
    it(ACTION, LONG_DISCHARGE, True),
    # ---- route ---------------------------------------------------------------------------------------------
    it(ROUTE, "I'd like to cancel my appointment with Dr Shah on the 14th, something's come up at work.",
       "appointments"),
    it(ROUTE, "Can you send my repeat of ramipril to the pharmacy please? Running low.", "prescriptions"),
    it(ROUTE, "I had bloods taken last Tuesday for my thyroid — are the results in?", "test_results"),
    it(ROUTE, "My solicitor needs a copy of my medical records from 2019 to 2022 for a personal injury claim. "
              "Consent form attached.", "medical_records"),
    it(ROUTE, "I've had a cough for four weeks now and this morning there was a bit of blood when I coughed.",
       "clinical_triage"),
    it(ROUTE, "We've just moved to the area and would like to register our family of four with the practice.",
       "registration"),
    it(ROUTE, "I need a letter confirming I had Covid in March for my travel insurance claim.", "medical_records"),
    it(ROUTE, "The pharmacy says my metformin is now on a different brand and I'm not sure whether to take it.",
       "prescriptions", amb=True),
    it(ROUTE, "My mole looks bigger and darker than it did in the summer and it's itchy.", "clinical_triage"),
    it(ROUTE, "I've changed my mobile number, it's now 07700 900 812.", "registration"),
    it(ROUTE, "The hospital said they'd send my MRI report to you. Has it arrived, and what does it say?",
       "test_results"),
    it(ROUTE, "I need a fit note for work, I've been off with my back since Monday and the doctor on the phone said "
              "to request one.", "medical_records", amb=True),
    # ---- appointment type ------------------------------------------------------------------------------------
    it(SLOT, "I need my second hepatitis B vaccine before I travel in May.", "nurse"),
    it(SLOT, "I've had a rash on my elbows for a couple of months, not getting better with moisturiser. Not urgent.",
       "routine"),
    it(SLOT, "My 2-year-old has had a high temperature since this morning and is floppy and off his food.",
       "same_day"),
    it(SLOT, "I'd just like to talk to the doctor about my recent blood results that the letter said were "
             "'satisfactory'.", "telephone"),
    it(SLOT, "Just letting you know I've had my covid booster at the pharmacy, in case you need to update my "
             "record.", "none"),
    it(SLOT, "I need my dressing changed on the wound from my operation, the hospital said 3 days after "
             "discharge.", "nurse"),
    it(SLOT, "My period has been very heavy for the last three cycles and I feel exhausted. I'd like to get it "
             "checked.", "routine", amb=True),
    it(SLOT, "My anxiety has got worse since the new job and I'd like to discuss whether to go back on "
             "medication. I'm fine to talk on the phone.", "telephone"),
    # ---- urgency --------------------------------------------------------------------------------------------
    it(URGENCY, "I'd like a general health check, I'm 45 and haven't seen anyone in years.", 0),
    it(URGENCY, "My toddler has had a runny nose and a mild cough for five days but is eating and playing "
                "normally.", 0, amb=True),
    it(URGENCY, "I've had burning when I wee since yesterday and need to go all the time. No fever.", 1),
    it(URGENCY, "I'm 32 weeks pregnant and the baby has been moving much less than usual since this morning.", 3,
       amb=True),
    it(URGENCY, "I found a lump in my breast in the shower last night. It doesn't hurt.", 1, amb=True),
    it(URGENCY, "My dad (82) has become suddenly confused today and doesn't know where he is; he had a urine "
                "infection last year.", 2),
    it(URGENCY, "I've had a sore knee on and off for a few months, worse after running.", 0),
    it(URGENCY, "My 6-month-old has a temperature of 39.2 and hasn't had a wet nappy since last night.", 2),
    it(URGENCY, "I cut my hand on a knife and it won't stop bleeding even after pressing on it for 20 minutes; "
                "it's spurting.", 3),
    it(URGENCY, "I've had an earache for two days and some discharge. Painkillers help.", 1),
    it(URGENCY, "My repeat of blood pressure tablets will run out next week.", 0),
    it(URGENCY, "I'm having an asthma attack, my inhaler isn't helping and I can't finish a sentence.", 3),
    it(URGENCY, "I started antibiotics yesterday and I've come out in an itchy rash all over, no swelling or "
                "breathing problems.", 2),
    it(URGENCY, "I've had a constant tummy pain on the lower right side since last night, it's getting worse and "
                "I've been sick.", 2, amb=True),
    # ---- referral completeness --------------------------------------------------------------------------------
    it(REFERRAL, "Please see this man with knee pain. Thanks.", 0),
    it(REFERRAL, "Referral to ENT, routine. 54-year-old with 3 months of unilateral left hearing loss and tinnitus. "
                 "Exam: wax-free canals, Weber lateralises right. Meds: amlodipine 5 mg. No known drug allergies.",
       3),
    it(REFERRAL, "Urgent referral to gastroenterology. 61-year-old woman, 6 weeks of change in bowel habit and "
                 "8 kg weight loss, FIT positive. Abdomen soft, no masses. Allergies: none known.", 2),
    it(REFERRAL, "Dermatology please, 2-week wait. Pigmented lesion on back, changed over 3 months, 9 mm, irregular "
                 "border.", 1),
    it(REFERRAL, "Routine referral to physiotherapy for lower back pain of 8 weeks, no red flags. On naproxen "
                 "500 mg bd. Allergic to codeine.", 2, amb=True),
    it(REFERRAL, LONG_REFERRAL, 2),
    # ---- medium-length messages ----------------------------------------------------------------------------
    it(ROUTE, """
        Dear Sir/Madam,

        Re: Mr Daniel Okoro, DOB 19/01/1979, 41 Linacre Road, Sheffield S10 2QJ

        We act for Mr Okoro in connection with a claim under his income protection policy with Halcyon Life. Mr
        Okoro has been unable to work since May following a back injury. The insurer has asked for a report from
        his GP covering his diagnosis, the treatment he has received, his current functional limitations and the
        expected date of return to work. We enclose Mr Okoro's signed consent under the Access to Medical
        Reports Act 1988, together with the insurer's report form.

        Please let us know your fee for preparing the report. We would be grateful to receive it within 28 days.

        Yours faithfully,
        Harper Lowe LLP
        """, "medical_records"),
    it(URGENCY, """
        Hello, I hope this is the right place to ask. For the last month or so I've been getting heartburn most
        evenings after dinner, sometimes with a sour taste in my mouth when I lie down. Gaviscon helps. I've cut
        back on coffee, which has helped a bit. I haven't lost any weight, I'm eating normally, no trouble
        swallowing, and no vomiting or black stools. I'm 38 and generally well. I'd like to talk to someone about
        whether I need anything stronger or any tests, but there's no rush — any appointment in the next week or
        so would be fine. Thanks, Chloe
        """, 1, amb=True),
]
