"""Insurance and benefit claims judged against written coverage rules: waiting periods, deadlines, excesses, caps."""

from ._kit import choice, it, noul, score

DOMAIN = "insurance_claims"
PREFIX = "claim"

# ---- questions ---------------------------------------------------------------------------------------------

DENTAL = noul(
    "Dental plan rules. The waiting count is the number of days from the policy start date to the treatment "
    "date (treatment date minus start date). Routine care (check-ups, scale and polish, X-rays) is covered from "
    "the start date. Basic care (fillings, extractions, emergency call-outs) is covered only if the waiting "
    "count is 90 or more. Major care (crowns, bridges, root canal treatment, dentures, implants) is covered only "
    "if the waiting count is 365 or more. Orthodontic treatment is covered only if the member is under 19 on the "
    "treatment date. Cosmetic treatment (whitening, veneers, bonding done for appearance) is never covered. "
    "Exception: treatment of an injury caused by an accident is covered from the start date, whatever its type, "
    "provided the accident happened on or after the start date.\n\n"
    "Under these rules, is the treatment in this claim covered? Ignore amounts and annual limits."
)

TIMELY = noul(
    "Claim submission rule. A claim must be received within 90 days of the date of service: the received date "
    "minus the date of service must be 90 days or less. For an inpatient stay (admitted and staying at least one "
    "night) the date of service is the discharge date and the limit is 180 days instead of 90. If the member "
    "first sent the claim to another insurer by mistake and encloses that insurer's rejection letter, the days "
    "are counted from the date of the rejection letter instead of the date of service; without the letter, the "
    "normal count applies.\n\nWas this claim received in time?",
    true="Received within the applicable limit.",
    false="Received after the applicable limit.",
)

PREAUTH = noul(
    "Pre-authorisation rule (private medical plan). These need pre-authorisation from the insurer, dated on or "
    "before the treatment date: (1) MRI, CT and PET scans; (2) any inpatient or day-case admission; (3) any "
    "outpatient treatment or procedure billed at more than £1,500. Consultations, blood tests, X-rays and "
    "ultrasound scans never need it. Exception: an emergency admission through A&E does not need "
    "pre-authorisation, but the insurer must be notified no later than the second working day (Monday to "
    "Friday) after the day of admission.\n\nDoes this claim meet the pre-authorisation rule?",
    true="Nothing needed pre-authorisation, or it was obtained (or the emergency notified) in time.",
    false="Pre-authorisation or emergency notification was required and was missing or late.",
)

HOME_PAYABLE = noul(
    "Home insurance policy HX-3. Excess per claim: £250 standard; £500 for escape of water (burst pipes, leaking "
    "appliances); £1,000 for subsidence. Not covered: damage caused by wear and tear or gradual deterioration; "
    "damage by insects, vermin or pets; theft or escape of water happening after the home has been unoccupied "
    "for more than 45 consecutive days; theft from an unlocked outbuilding. Accidental damage (spills, drops, "
    "knocks) is covered only if the schedule shows the accidental damage add-on.\n\n"
    "After applying the exclusions and the excess, is any amount payable to the policyholder on this claim?"
)

PET = choice(
    "Pet insurance claim assessment. Apply these checks in order and answer with the first one that fails; if "
    "none fails, the claim is paid.\n"
    "(1) Late submission: the claim must be received within 90 days of the treatment date (received date minus "
    "treatment date is 90 or less).\n"
    "(2) Waiting period: an illness is not covered if its first signs appeared 0 to 13 days after the policy "
    "start date (signs date minus start date between 0 and 13); an accidental injury is not covered if it "
    "happened 0 or 1 days after the start date. Signs or injuries from before the start date are dealt with "
    "by check 3, not here.\n"
    "(3) Pre-existing: a condition that showed signs, or was examined or treated, before the policy start date is "
    "not covered.\n"
    "(4) Excluded treatment: vaccinations, neutering, routine dental cleaning, flea and worm treatment, and "
    "pregnancy or birth care are never covered.\n"
    "(5) Annual limit: if the vet-fee limit remaining for the policy year is £0, the claim is declined (a "
    "remaining limit above £0 is paid up to that amount).\n\n"
    "What is the outcome of this claim?",
    {
        "paid": "all five checks pass",
        "declined_late_submission": "check 1 fails",
        "declined_waiting_period": "check 2 fails",
        "declined_pre_existing": "check 3 fails",
        "declined_excluded_treatment": "check 4 fails",
        "declined_limit_exhausted": "check 5 fails",
    },
)

TRAVEL = choice(
    "Travel insurance, emergency medical section. Terms: (a) the incident must happen within the cover dates on "
    "the schedule; (b) a single trip may last at most 31 days (return date minus departure date); a longer trip "
    "is not covered at all, not even its first days; (c) pre-existing medical conditions are excluded unless "
    "listed under 'declared conditions' on the schedule; (d) winter sports, and scuba diving deeper than 30 "
    "metres, are excluded unless the matching add-on is on the schedule; (e) any claim arising while the "
    "insured's blood alcohol was over the legal driving limit of the country where it happened is excluded; "
    "(f) elective treatment that could reasonably wait until the insured is home is excluded.\n\n"
    "Which term, if any, excludes this claim? If none does, answer covered.",
    {
        "covered": "no term excludes the claim",
        "outside_cover_dates": "term (a)",
        "trip_too_long": "term (b)",
        "undeclared_pre_existing": "term (c)",
        "hazardous_activity": "term (d)",
        "alcohol": "term (e)",
        "elective_treatment": "term (f)",
    },
)

OUTPATIENT = choice(
    "Outpatient benefit rules. Only the eligible amount counts: for each line, the lower of the billed amount and "
    "the plan's allowed amount. The member first pays whatever is left of the annual deductible; the plan then "
    "pays 80% of the rest of the eligible amount; the plan's payment cannot exceed the annual outpatient limit "
    "remaining.\n\nHow much does the plan pay on this claim?",
    {
        "nothing": "£0",
        "up_to_100": "more than £0 and up to £100",
        "100_to_500": "more than £100 and up to £500",
        "500_to_1000": "more than £500 and up to £1,000",
        "over_1000": "more than £1,000",
    },
)

STD = choice(
    "Short-term disability (STD) plan. Work through these rules in order and answer with the first one that "
    "decides the claim; if none does, answer eligible.\n"
    "(0) If the disability results from an injury at work, the STD plan does not decide it: refer_workers_comp.\n"
    "(1) Service: on the first day of absence the employee must have 180 or more days of service (first day of "
    "absence minus hire date).\n"
    "(2) Elimination period: the first day of absence is day 1; benefit is payable only if the employee is still "
    "absent on day 8.\n"
    "(3) Certificate: a medical certificate must be received no more than 30 days after the first day of absence "
    "(received date minus first day of absence is 30 or less).\n"
    "(4) Excluded causes: self-inflicted injury, injury while committing a crime, cosmetic surgery that is not "
    "medically necessary.",
    {
        "eligible": "no rule stops the claim",
        "refer_workers_comp": "rule 0: injury at work",
        "fails_service": "rule 1",
        "fails_elimination": "rule 2",
        "fails_certificate": "rule 3",
        "fails_excluded_cause": "rule 4",
    },
)

DELAY = score(
    "Travel delay benefit. The delay is the actual departure time minus the scheduled departure time of the "
    "insured's flight (both local times at the departure airport). No benefit is payable if the insured was told "
    "of the delay more than 24 hours before the scheduled departure, or if the delay was caused by a strike or "
    "industrial action announced before the date the policy was bought. Otherwise the benefit level depends on "
    "the length of the delay.\n\nWhich benefit level applies?",
    [
        "no benefit: delay under 8 hours, or an exclusion applies",
        "£50: delay of 8 hours or more but under 16 hours",
        "£100: 16 hours or more but under 24 hours",
        "£200: 24 hours or more but under 48 hours",
        "£400: 48 hours or more",
    ],
)

NCD = score(
    "Motor insurance no-claims discount (NCD), in whole years from 0 to a maximum of 5. At renewal: if the policy "
    "year had no fault claims, add 1 year (maximum 5). Each fault claim in the year takes away 2 years (minimum "
    "0), and then no year is added. Windscreen-only claims, and non-fault claims where the insurer recovered all "
    "its costs from the other side, are ignored (they do not count as claims). A non-fault claim where the costs "
    "were not recovered counts as a fault claim. If the policy has NCD protection, the first fault claim in the "
    "year does not take away any years (the NCD stays the same, with no year added); each further fault claim in "
    "the same year takes away 2 years.\n\nWhat will the NCD be at renewal?",
    ["0 years", "1 year", "2 years", "3 years", "4 years", "5 years"],
)

CONTENTS = score(
    "Home contents claim calculation. For each claimed item, take the lower of its value and its limit: £1,500 "
    "for any single item, unless the item is specified on the schedule, in which case its own specified sum "
    "insured. Cash is covered up to £300 in total. Items lost or stolen away from the home are covered only if "
    "the schedule includes the personal possessions add-on; otherwise they count as £0. Add up the item amounts "
    "and take off one £150 excess for the claim (the result cannot go below £0).\n\n"
    "Which band does the payable amount fall into?",
    ["£0", "£1 to £499", "£500 to £1,999", "£2,000 to £4,999", "£5,000 or more"],
)

VISION = score(
    "Vision benefit rules. One eye examination every 12 months; one pair of lenses every 12 months (spectacle "
    "lenses and contact lenses share this one benefit); one set of frames every 24 months. A benefit can be paid "
    "again only if the new service date is on or after the same calendar date 12 months (24 months for frames) "
    "after that benefit was last paid. A benefit never paid before is available. Sunglasses without a "
    "prescription are not covered.\n\nHow many lines of this claim are payable?",
    ["none", "one line", "two lines", "three lines"],
)

# ---- items -------------------------------------------------------------------------------------------------

ITEMS = [
    # ---- dental waiting periods --------------------------------------------------------------------------
    it(DENTAL, {
        "claim_ref": "DN-40211",
        "member": "Priya Raman",
        "policy_number": "DP-661904",
        "policy_start": "2024-01-15",
        "practice": "Brookside Dental, Harrogate (Dr F. Amato)",
        "treatment_date": "2024-04-10",
        "treatment": "Composite (white) filling, lower left first molar (tooth 36)",
        "clinical_notes": "Decay spotted on bitewing X-rays at the routine check-up on 2024-03-28; no pain yet.",
        "previous_claims_this_policy": [
            {"date": "2024-03-28", "item": "Check-up and two bitewing X-rays", "paid": 48.00},
        ],
        "amount_gbp": 145.00,
        "pay_to": "member",
    }, False),
    it(DENTAL, """
        From: accounts@harbourviewdental.co.uk
        Subject: Claim for Mr Colm Brennan, policy DP-778120

        Dear claims team,
        Please find attached our invoice for Mr Brennan, who had a porcelain crown fitted on his upper right
        premolar on 4 November 2024 after the old filling split. His dental plan started on 1 November 2023 per
        the membership card he showed us. The total cost was £620 and he has paid us in full; please reimburse
        him directly to the account on file.
        Kind regards, Lorna (practice manager)
        """, True),
    it(DENTAL, {
        "claim_ref": "DN-40388",
        "member": "Eszter Kovacs",
        "policy_number": "DP-702215",
        "policy_start": "2024-03-01",
        "practice": "Quayside Smiles, Newcastle",
        "treatment_date": "2024-03-05",
        "treatment": "Scale and polish with hygienist, 30 minutes",
        "amount_gbp": 62.00,
        "member_comment": "Joined the plan through my new employer on 1 March and booked the hygienist straight "
                          "away because my gums had been bleeding a bit when brushing. New-patient registration "
                          "fee not claimed.",
    }, True),
    it(DENTAL, """
        Hi, I'm claiming for my orthodontic treatment. I had my fixed braces fitted on 2 July 2024 at SmileWorks
        in Leeds (invoice attached, £2,850 for the first phase; the second phase will be billed next year). I'm
        on my mum's family policy, which we've had since 2015, so I know the waiting periods are long done. My
        date of birth is 20 June 2005. Could you let me know when the money will come through? My mum's
        membership number is on the form.
        Thanks, Jade Whitfield
        """, False),
    it(DENTAL, {
        "claim_ref": "DN-40502",
        "member": "Marcus Oyelaran",
        "policy_number": "DP-590037",
        "policy_start": "2021-09-01",
        "practice": "Canal Street Dental Studio",
        "treatment_date": "2024-02-22",
        "treatment": "In-chair whitening, upper and lower arches",
        "dentist_note": "Patient asked for whitening before his wedding in March; teeth and gums healthy.",
        "amount_gbp": 395.00,
        "member_comment": "My dentist said my teeth were stained from coffee, so it's a dental problem really.",
    }, False),
    it(DENTAL, """
        Claim form, section C (treatment details), completed by member:
        Policy start date: 01/05/2024
        What happened: I came off my bike on 20/05/2024 on the canal path and hit my face on the railing. Front
        tooth (upper left central incisor) snapped in half. A&E sent me to my dentist.
        Treatment: temporary fix 21/05/2024, permanent crown fitted 03/06/2024.
        Cost: £710. Receipts attached. Accident witnessed by my friend Dev, details below.
        """, True),
    it(DENTAL, """
        Member phone note (claims line, 14 May 2024): Mrs Halloran says she tripped on a kerb on 28 April 2024
        and cracked a molar. Her dental policy started on 1 May 2024 — she bought it the day after the fall,
        "luckily", she said. She had a crown fitted on 10 May 2024 (£590) and wants to claim for it under the
        accident cover. No other treatment claimed.
        """, False),
    it(DENTAL, {
        "claim_ref": "DN-41177",
        "member": "Gethin Pryce",
        "policy_number": "DP-640512",
        "policy_start": "2023-06-30",
        "practice": "Heol Dental Care, Swansea",
        "treatment_date": "2024-06-28",
        "treatment": "Root canal treatment, lower right first molar (two appointments, both on the same day)",
        "referral": "Severe toothache since early June; no injury",
        "amount_gbp": 480.00,
        "member_comment": "I've been with you a full year now so this should be covered.",
    }, False),
    it(DENTAL, """
        Dear Sir/Madam, I am claiming £95 for an extraction of a wisdom tooth on 10 May 2024. It had been
        causing trouble for a few weeks, with swelling every time I ate on that side. My policy number is
        DP-902113 and it started on 10 February 2024. The extraction was straightforward and I have attached
        the receipt from Castlegate Dental. Please pay the money into the bank account I gave when I joined.
        Yours faithfully, A. Lindqvist
        """, True),
    it(DENTAL, """
        Parkway Orthodontics, 12 Regent Road, Leicester
        To: Claims Department                                        Date: 4 September 2024
        Re: Arjun Chauhan (DOB 03/09/2012), dependant on policy DP-338170 held by Mrs Sunita Chauhan

        Arjun was referred to us by his family dentist for a crossbite affecting the upper front teeth. On
        1 September 2024 we carried out a full orthodontic assessment with study models and fitted an upper removable
        appliance. The fee for this stage is £640, which Mrs Chauhan has paid. We understand the family policy has been
        in force since 1 April 2019. Please reimburse the policyholder. A review appointment is booked for October.
        Yours sincerely, Dr Hana Sato, Specialist Orthodontist
        """, True),
    it(DENTAL, """
        WhatsApp message forwarded to claims by the broker:
        "Hi, quick one — my lad Kieran (DOB 15 Aug 2005) had his braces adjusted and a new archwire fitted on
        14 Aug 2024, cost £180. He's on my family dental cover, started Jan 2020. He turns 19 the day after.
        Can we claim? Receipt from Parkside Orthodontics attached. Cheers, Dean"
        """, True),
    it(DENTAL, {
        "claim_ref": "DN-41622",
        "member": "Olusegun Adeyemi",
        "policy_number": "DP-915530",
        "policy_start": "2024-07-01",
        "provider": "DentalNow out-of-hours service, Croydon",
        "treatment_date": "2024-08-10",
        "treatment": "Emergency out-of-hours call-out and temporary dressing",
        "reason": "Throbbing toothache over the weekend; no injury or accident",
        "amount_gbp": 120.00,
        "member_comment": "Couldn't sleep for two nights. The dentist said I'll need a filling later.",
    }, False),
    # ---- claim submission deadline -----------------------------------------------------------------------
    it(TIMELY, """
        From: alistair.munro@outlook.com
        Received: 29 April 2024, 21:47
        Subject: Claim — dermatology appointment

        Hello, please find attached the invoice from Dr K. Osei (consultant dermatologist, Spire Clinic) for my
        outpatient consultation on 3 February 2024, £220, together with my GP's referral letter. The consultant looked
        at a mole on my back and was happy it was benign, so no further treatment is planned. Sorry for the wait in
        sending this — the clinic only emailed me the itemised invoice last week. Membership number HC-4471902.
        Regards, Alistair Munro
        """, True),
    it(TIMELY, {
        "claim_id": "HC-2024-120931",
        "member": "Fiona Castellanos",
        "provider": "BodyWorks Physio, Cardiff",
        "service_type": "Outpatient physiotherapy, single session",
        "date_of_service": "2024-01-10",
        "date_received": "2024-04-12",
        "channel": "post",
        "amount": 75.00,
        "member_note": "Sorry this is late, I was moving house and the invoice got packed in a box.",
    }, False),
    it(TIMELY, """
        Covering letter received by post, date-stamped 20 May 2024:
        "Please find enclosed my claim for my hospital stay at St Bride's. I was admitted on 1 December 2023 for
        a gallbladder operation and discharged on 5 December 2023 after four nights. The invoice from the
        hospital is enclosed, along with the surgeon's fees. Apologies for the delay — recovery took longer than
        I expected. Regards, Mrs E. Dunmore"
        """, True),
    it(TIMELY, {
        "claim_id": "HC-2024-131577",
        "member": "Rory Gallagher",
        "provider": "Active Recovery Physiotherapy",
        "service_type": "Outpatient physiotherapy, course of 6 sessions",
        "date_of_service": "2024-03-18",
        "date_received": "2024-07-01",
        "amount": 390.00,
        "notes": "Date of service is the date of the final session; all six sessions are on one invoice.",
    }, False),
    it(TIMELY, """
        Email received 20 June 2024, 10:14
        Subject: Claim for outpatient MRI — previously sent to wrong insurer
        Hello, I had an outpatient MRI on 5 January 2024. I'd forgotten that my employer changed insurer in
        the new year, so I sent the claim to Westbrook Health first. They rejected it with a letter dated
        2 April 2024 saying I'm no longer a member — a copy of that letter is attached, along with the scan
        invoice. Can you process it please? Thanks, Tomasz Wilk
        """, True),
    it(TIMELY, """
        Claim received 1 June 2024 for an outpatient cardiology consultation on 1 February 2024 (£310), with
        the consultant's invoice and an ECG report.
        Member's note on the form: "I originally sent this to my old insurer by mistake and they said no, that's
        why it's late. I don't have their letter any more, I think I threw it away when I cleared out my desk."
        """, False),
    it(TIMELY, """
        Claims note, 25 July 2024 — HC-2024-140662, Mrs Deborah Ilesanmi.
        Claim received today by post for an inpatient stay at Kingsmead Private Hospital: admitted 16 January 2024 for
        a left hip replacement, discharged 20 January 2024 (four nights). Total £8,450 including surgeon and
        anaesthetist. The hospital invoiced Mrs Ilesanmi directly rather than billing us, and she says she only
        realised in July that she had to send it to us herself. No letter from any other insurer is enclosed. She has
        asked whether we can "make an exception given the circumstances".
        """, False),
    it(TIMELY, """
        Received via the member app on 29 August 2024 — Callum Reid
        Service: outpatient ENT consultation and hearing test at Northern ENT Partners, 31 May 2024
        Amount: £265 (consultation £190, audiogram £75)
        Documents: itemised invoice, audiogram report
        Member's note: "Had the appointment at the end of May after months of ringing in my left ear. Consultant says
        it's mild tinnitus, nothing serious. Only just got round to claiming — hope that's OK."
        """, True),
    it(TIMELY, """
        Claim received 15 July 2024.
        Treatment: day-case knee arthroscopy at Riverside Clinic on 1 March 2024. Admitted 07:30, discharged
        the same day at 17:15.
        Member comment: "As this was a hospital admission I understand I have 180 days to claim. The surgeon's
        bill came separately, so I waited until I had everything."
        Amount: £2,940.
        """, False),
    it(TIMELY, {
        "claim_id": "HC-2024-102355",
        "member": "Hannah Okafor",
        "provider": "Westfield Medical Centre (private clinic)",
        "service_type": "Outpatient blood tests and GP-referral consultation",
        "date_of_service": "2023-11-20",
        "date_received": "2024-02-10",
        "channel": "post",
        "amount": 185.00,
        "member_note": "Posted just after Christmas; apologies if it took a while to arrive.",
    }, True),
    it(TIMELY, """
        Received 1 May 2024 by email. Outpatient sports medicine consultation on 12 December 2023, £240.
        The member attached a rejection letter from Calder Mutual dated 15 January 2024, which says the claim
        was sent to them in error because her cover with them ended in 2022. She says she only found our
        details when she dug out her new policy booklet.
        """, False),
    it(TIMELY, """
        Claim HC-2024-160419 — Ms Zainab Hussain
        Received: 20 August 2024 (post)
        Treatment: planned caesarean section at Rosewood Maternity Suite. Admitted 26 February 2024; mother and baby
        discharged 2 March 2024 after a five-night stay.
        Amount: £6,120, including the obstetrician's and anaesthetist's fees.
        Covering note: "Apologies that this is so late — I've had my hands full with a newborn! Everything should be
        enclosed. Please pay into the joint account ending 4471."
        """, True),
    # ---- pre-authorisation --------------------------------------------------------------------------------
    it(PREAUTH, """
        From: billing@valeimaging.co.uk
        Subject: Invoice VI-20931 — Mr Gareth Lloyd — MRI lumbar spine

        Dear Claims Team,
        Please find our invoice for an outpatient MRI of the lumbar spine carried out on 10 April 2024 for your member
        Mr Gareth Lloyd, following referral by his consultant orthopaedic surgeon after a consultation on 2 April.
        Your pre-authorisation reference PA-88213 was issued to the patient on 8 April 2024 and is quoted on the
        attached invoice. Amount due: £780.00, payable within 30 days.
        Kind regards, Vale Imaging Centre billing team
        """, True),
    it(PREAUTH, {
        "claim": "PM-55204",
        "member": "Anita Szabo",
        "treatment": "MRI scan, right knee (outpatient)",
        "treatment_date": "2024-04-10",
        "pre_authorisation": {"reference": "PA-88340", "issued": "2024-04-12"},
        "provider": "Vale Imaging Centre",
        "billed": 690.00,
        "note": "Member called two days after the scan to ask for authorisation; a reference was issued then.",
    }, False),
    it(PREAUTH, """
        Invoice summary, Northgate Pain Clinic, patient Mr J. Ferris, 14 May 2024:
        Outpatient facet joint injections under image guidance — £1,650.00
        Pre-authorisation reference: none (patient advised that outpatient treatment does not need it)
        Consultant's note: procedure done in the outpatient suite; patient went home after 40 minutes.
        """, False),
    it(PREAUTH, """
        Dr S. Iqbal, Consultant Dermatologist — invoice note for insurer, 22 May 2024
        Patient: Ms Bethany Carr. Procedure: excision of a 9 mm pigmented lesion from the left shoulder under local
        anaesthetic, with histology, performed today in the outpatient minor-procedures room. The patient was not
        admitted and left 30 minutes after the procedure.
        Fee: £1,500.00 (procedure £1,280, histology £220).
        Pre-authorisation: not requested.
        """, True),
    it(PREAUTH, """
        Hospital notification log:
        - Patient Rosa Delgado admitted via A&E at 22:40 on Friday 7 June 2024 with suspected appendicitis;
          appendix removed overnight; discharged Sunday 9 June.
        - Insurer notified by the hospital's billing office on Tuesday 11 June 2024 at 09:05.
        - No pre-authorisation requested (emergency).
        """, True),
    it(PREAUTH, """
        Member email, 20 June 2024: "My husband was rushed into A&E on Wednesday 12 June 2024 with chest pains and
        was admitted to the cardiac ward for three nights. I rang you on Monday 17 June as soon as things calmed
        down. Please can you confirm the hospital bill will be covered? We didn't get any authorisation because
        there was no time."
        """, False),
    it(PREAUTH, """
        Pre-authorisation record PA-90177: issued 3 July 2024 for Mr Lewis Drummond, planned day-case knee arthroscopy
        at Riverside Clinic.
        Claim PM-57133, received 12 July 2024: day-case right knee arthroscopy and meniscal trim, performed 3 July 2024;
        the patient was admitted in the morning and discharged the same afternoon. Billed £3,100 (surgeon £1,450,
        hospital £1,300, anaesthetist £350).
        """, True),
    it(PREAUTH, """
        Claim note: Mr Okafor was admitted to the Lister Wing on 2 September 2024 for a planned three-night stay
        for hernia repair. His GP had told him the operation was urgent, so he booked it directly with the
        hospital and didn't call us beforehand. He did not go through A&E. No pre-authorisation on file.
        Bill: £5,480.
        """, False),
    it(PREAUTH, {
        "claim": "PM-57650",
        "member": "Yusuf Demir",
        "referral": "GP referral for persistent cough",
        "lines": [
            {"item": "Outpatient consultation, respiratory physician", "date": "2024-08-14", "billed": 250.00},
            {"item": "Outpatient chest X-ray", "date": "2024-08-14", "billed": 140.00},
            {"item": "Full blood count and liver function tests", "date": "2024-08-14", "billed": 180.00},
        ],
        "pre_authorisation": None,
    }, True),
    it(PREAUTH, """
        Notification received Tuesday 6 August 2024, 11:20, from the ward clerk at Hartfield General:
        Member Ms Chloe Barnard was brought into A&E by ambulance on Saturday 3 August 2024 after a fall and was
        admitted to the trauma ward for surgery on a fractured wrist. Expected discharge 7 August.
        """, True),
    it(PREAUTH, {
        "claim": "PM-58204",
        "member": "Ifeoma Nwosu",
        "treatment": "CT scan of the abdomen (outpatient)",
        "referred_by": "Private GP",
        "treatment_date": "2024-09-19",
        "billed": 450.00,
        "pre_authorisation": None,
        "member_note": "It was cheap compared with the MRI I had last year, so I didn't think it needed approval.",
    }, False),
    it(PREAUTH, """
        From: h.pemberton@btinternet.com
        Subject: Claim for my eye operation
        Dear Sirs, I had cataract surgery on my left eye on 8 October 2024 as a planned day case at the Northfield Eye
        Unit, with a new lens implant. The total bill came to £1,200. As this is well under £1,500 I assumed I did not
        need to ask you for authorisation beforehand, so I didn't. I'd be grateful if you could reimburse me; the
        invoice is attached. My right eye may need doing next year.
        Yours faithfully, Harold Pemberton
        """, False),
    # ---- home insurance: anything payable? -------------------------------------------------------------------
    it(HOME_PAYABLE, """
        Claim HX3-22018. During Storm Isha on 21 January 2024, high winds lifted eleven roof tiles and broke a
        ridge tile. Roofer's invoice for replacement and scaffolding: £1,180. The roof was re-laid in 2019 and
        the roofer confirms the damage was caused by the wind, not by wear. Policyholder: Mr and Mrs Ellery.
        """, True),
    it(HOME_PAYABLE, """
        Phone claim notes, HX3-22107, 18 March 2024 — Ms Joanna Pike
        Ms Pike reports that the inlet hose on her washing machine split during a cycle this morning while she was at
        home. Water spread across the utility-room laminate and soaked the bottom of the skirting boards before she
        turned off the stopcock. A flooring fitter has quoted £420 to lift and replace the laminate and skirting. No
        other rooms affected. She has been living at the property throughout.
        """, False),
    it(HOME_PAYABLE, """
        Dear Sir or Madam,

        Policy HX3-47712 — claim for water damage at 9 Larkfield Close, Harrogate

        I am writing to make a claim under my home insurance. On 6 January 2024 I flew to Alicante to spend the rest of
        the winter with my daughter and her family, as I have done for the last few years. The house was locked up and
        nobody lived in it or stayed there while I was away; my neighbour Mr Patel kept an eye on the outside and
        collected the post from the letterbox cage but did not go in.

        When I came home on 27 February 2024 I found that a pipe in the loft had burst. Water had come through the
        ceilings of both back bedrooms, which have partly collapsed, and the carpets and a wardrobe are ruined. The
        plumber who repaired the pipe says, from the water meter readings, that the pipe burst around 24 February,
        probably after the cold snap that week. The builder's quote for the ceilings and redecoration is £3,200.

        I have been with you for eleven years and have never claimed before. I would be grateful if you could send an
        assessor as soon as possible.

        Yours faithfully,
        Margaret Sowerby
        """, False),
    it(HOME_PAYABLE, {
        "claim": "HX3-22390",
        "policyholder": "Owain Jenkins",
        "peril": "Theft",
        "description": "Garage door forced with a crowbar overnight; electric mountain bike stolen. Neighbour's "
                       "doorbell camera shows two people leaving at 03:10.",
        "outbuilding_locked": True,
        "police_reference": "WMP-24-88102",
        "value_claimed": 900.00,
        "proof_of_ownership": "Receipt from 2022",
    }, True),
    it(HOME_PAYABLE, """
        Claim notes, call with Mr Doherty, 9 April 2024: someone took his ride-on mower and a strimmer from the
        garden shed overnight. He says the shed padlock "has been broken for ages" so the shed was shut but not
        locked. No damage to the shed. Total value claimed £600. Crime reference given.
        """, False),
    it(HOME_PAYABLE, {
        "claim": "HX3-22671",
        "policyholder": "Ruth and Simon Achebe",
        "peril": "Accidental damage",
        "description": "Glass of red wine knocked over at a dinner party, staining the living-room carpet beyond "
                       "cleaning (professional cleaner's report attached).",
        "replacement_quote": 700.00,
        "schedule_add_ons": ["accidental damage", "home emergency"],
    }, True),
    it(HOME_PAYABLE, {
        "claim": "HX3-22702",
        "policyholder": "Krzysztof Nowak",
        "peril": "Accidental damage",
        "description": "Child dropped a heavy toy onto the 65-inch television, cracking the screen.",
        "replacement_quote": 1100.00,
        "schedule_add_ons": ["legal expenses"],
        "member_comment": "It was a complete accident, so surely it's covered?",
    }, False),
    it(HOME_PAYABLE, """
        Subsidence claim HX3-23015. Hairline cracks appeared above two doorframes in the rear extension during
        the dry summer. The structural engineer's report confirms minor clay shrinkage subsidence; the
        recommended repair (crack stitching and redecoration) is estimated at £980. No further movement
        expected.
        """, False),
    it(HOME_PAYABLE, """
        Structural engineer's summary, claim HX3-23140 (Ms Deepa Raghunathan, 22 Elmfield Road)
        Findings: diagonal stepped cracking to the front elevation up to 8 mm wide; front door and two internal doors
        sticking. A CCTV drain survey shows a fractured clay drain beneath the bay window, which has washed fines out of
        the subsoil. Cause: subsidence due to the leaking drain. Recommended: drain repair, underpinning of the bay and
        crack repairs. Contractor estimate: £14,500. The property is occupied by the policyholder and her family.
        """, True),
    it(HOME_PAYABLE, """
        Loss adjuster's summary: Water has been entering the bathroom ceiling for several months around an old
        lead flashing on the chimney. The flashing has perished with age and the timber beneath is rotten. In
        my opinion the damage is the result of gradual deterioration rather than a sudden event. Repair cost
        claimed: £2,350.
        """, False),
    it(HOME_PAYABLE, """
        Claim HX3-23377. The family went on holiday to Canada on 1 August 2024 and a neighbour noticed the back
        door open on 31 August 2024, the day before they returned. A laptop and jewellery worth £2,300 were
        taken. Police attended and issued crime reference NYP-24-55190. The house had not been occupied during
        the trip.
        """, True),
    it(HOME_PAYABLE, """
        Email to claims, 2 October 2024: "Hi, we had a small pan fire on the hob last night — my son was making chips.
        We put it out with the fire blanket, no one was hurt and we didn't need the fire brigade. The smoke has
        blackened the kitchen ceiling and the inside of one wall cupboard. A decorator has cleaned and repainted
        everything for £260 (invoice attached). Policy HX3-51907. Thanks, Tariq Mahmood"
        """, True),
    # ---- pet insurance -----------------------------------------------------------------------------------
    it(PET, """
        Vet section of claim form PT-301882 — Pennington Veterinary Centre
        Patient: Biscuit, cocker spaniel, male neutered, 6 years. Policy start: 1 September 2023.
        Presenting complaint: head shaking and scratching at the right ear, first noticed by the owner on 4 March 2024.
        Examined 5 March 2024: otitis externa, right ear. Treated with ear cleaning and medicated drops.
        Previous history: no ear problems in the clinical records.
        Fees: £186.40. Claim received by insurer: 12 April 2024. Limit remaining this policy year: £4,000.
        """, "paid"),
    it(PET, """
        Claim PT-302117 for Mango (domestic shorthair cat, 4). Cystitis diagnosed and treated on 8 January 2024
        (£232). The owner posted the claim form in April; it arrived on 12 April 2024. Policy started June 2022;
        no prior urinary problems in the clinical history; £2,800 of the annual limit remains.
        """, "declined_late_submission"),
    it(PET, """
        Hi there, claim for Otto (dachshund, 2). We took the policy out on 1 May 2024. On 10 May he started vomiting
        and had diarrhoea, and on 11 May the vet diagnosed gastroenteritis — he was on a drip for the day. The bill was
        £412. He'd been perfectly healthy at his check-up in April, so this was completely out of the blue. Claim form
        attached; sending it today, 20 May. We haven't claimed anything else, so the whole £3,000 limit should be
        there. Thanks, Martha
        """, "declined_waiting_period"),
    it(PET, """
        Hi, my dog Luna ran into the road and was clipped by a cyclist on 11 June 2024 — she needed stitches on
        her leg (£310, treated the same day). I only took out the policy on 10 June so it was lucky timing! Claim
        form and vet invoice attached. She's never been injured before. Sent today, 18 June 2024.
        """, "declined_waiting_period"),
    it(PET, """
        Claim PT-303309 (received 25 June 2024). Rufus, labrador, 3. Policy started 10 June 2024. On 13 June Rufus cut
        his front paw on broken glass during a beach walk; the vet cleaned and stitched the wound the same afternoon
        (£268). Accident only — no illness. No previous injuries on record. £5,000 vet-fee limit available.
        """, "paid"),
    it(PET, """
        Claim PT-303512 — assessor's file note
        Pet: Bramble, border terrier, female spayed, 7 years. Policy start: 1 March 2024. Annual vet-fee limit
        remaining: £6,000.
        Claim: cruciate ligament repair (TPLO), right hind leg, performed 2 July 2024 at Hillside Referrals; £3,900.
        Claim received 10 July 2024.
        Clinical history from the previous practice (Moorgate Vets):
        - 14 November 2023: owner reports Bramble "sometimes holds up her right back leg after walks". Examined; mild
          discomfort on stifle manipulation, no drawer sign. Two weeks' lead rest and anti-inflammatories advised.
        - 2 December 2023: re-check, much improved, discharged.
        Current practice records:
        - 21 May 2024: lame on right hind after chasing a squirrel. Positive drawer sign; cruciate rupture suspected.
        - 2 July 2024: surgery.
        Owner's comment: "The limp last year was nothing, it went away completely."
        """, "declined_pre_existing"),
    it(PET, {
        "claim_no": "PT-303877",
        "pet": "Pixel, ragdoll cat, 1 year",
        "policy_start": "2023-11-15",
        "treatment": "Annual booster vaccination and health check",
        "treatment_date": "2024-08-02",
        "claim_received": "2024-08-05",
        "vet_fees": 79.00,
        "limit_remaining": 2500.00,
        "owner_comment": "The vet found nothing wrong, but I thought the booster was part of keeping her healthy.",
    }, "declined_excluded_treatment"),
    it(PET, """
        From: hannah.price@mailbox.org
        Date: 12 September 2024
        Hello, I'd like to claim for Alfie's dental clean under anaesthetic on 3 September (£345). The vet said
        there was a lot of tartar build-up and it was his routine yearly scale and polish. Policy has been
        running since 2021 and there was nothing wrong with his teeth before. Thanks, Hannah
        """, "declined_excluded_treatment"),
    it(PET, {
        "claim_no": "PT-304410",
        "pet": "Shadow, German shepherd, 9 years",
        "policy_start": "2020-02-01",
        "policy_year": "2024-02-01 to 2025-01-31",
        "condition": "Hip dysplasia flare-up (condition first seen in 2022, claimed every year since)",
        "treatment_date": "2024-10-03",
        "claim_received": "2024-10-09",
        "vet_fees": 520.00,
        "limit_remaining": 0.00,
        "note": "Annual vet-fee limit of £5,000 used up by August.",
    }, "declined_limit_exhausted"),
    it(PET, """
        Claim PT-304698 for Daisy (rabbit, 2). Neutering operation on 15 May 2024, £160. The owner found the
        invoice while tidying and posted the claim, which arrived on 12 September 2024. Policy started in
        March 2023 and Daisy has no other claims this year; the full £2,000 limit remains.
        """, "declined_late_submission"),
    it(PET, {
        "claim_no": "PT-305012",
        "pet": "Mocha, pug, 5 years",
        "policy_start": "2024-04-01",
        "condition": "Brachycephalic airway syndrome, surgical correction",
        "treatment_date": "2024-07-18",
        "claim_received": "2024-07-26",
        "vet_fees": 2100.00,
        "limit_remaining": 0.00,
        "previous_vet_records": "Noisy breathing and snoring investigated in January 2024; surgery discussed "
                                "and deferred.",
    }, "declined_pre_existing"),
    it(PET, """
        Claim PT-305390: Willow (spaniel cross, 4). Policy started 1 February 2024. On 15 February 2024 the
        owner noticed Willow limping and licking a swollen paw; the vet diagnosed an interdigital cyst and
        treated it on 16 February 2024 (£198). Claim received 27 February 2024. Nothing in Willow's earlier
        records about her paws. Full £4,000 limit available.
        """, "paid"),
    # ---- travel exclusions -----------------------------------------------------------------------------------
    it(TRAVEL, {
        "claim": "TR-88120",
        "insured": "Nikos Papadakis",
        "cover_dates": "2024-08-01 to 2024-08-14",
        "trip": {"departure": "2024-08-01", "return": "2024-08-14", "destination": "Crete"},
        "incident_date": "2024-08-16",
        "incident": "Admitted to hospital in Heraklion with kidney stones",
        "note": "Insured missed the original flight home and stayed on in Crete; the policy was not extended.",
        "schedule": {"declared_conditions": [], "add_ons": []},
    }, "outside_cover_dates"),
    it(TRAVEL, """
        Claim TR-88214. Mr Ambrose travelled to Thailand on 1 March 2024, with a booked return flight on
        5 April 2024. On 4 March he developed dengue fever and spent three nights in hospital in Chiang Mai.
        Cover dates on the schedule: 1 March 2024 to 5 April 2024. No pre-existing conditions; no add-ons.
        """, "trip_too_long"),
    it(TRAVEL, """
        Medical report from Clínica San Rafael, Málaga, 18 May 2024: the patient, a 42-year-old British tourist,
        attended with an acute asthma attack after hiking and was nebulised and kept in overnight. She has had
        asthma since childhood and uses a preventer inhaler daily.
        Policy schedule extract: cover 15–25 May 2024; declared conditions: none.
        """, "undeclared_pre_existing"),
    it(TRAVEL, {
        "claim": "TR-88530",
        "insured": "Hélène Marchetti",
        "cover_dates": "2024-06-03 to 2024-06-17",
        "incident_date": "2024-06-09",
        "incident": "Hypoglycaemic episode at a restaurant in Lyon; ambulance and one night in hospital",
        "medical_history": "Type 1 diabetes since 2011",
        "schedule": {"declared_conditions": ["Type 1 diabetes (accepted, premium loaded)"], "add_ons": []},
        "alcohol_involved": False,
    }, "covered"),
    it(TRAVEL, """
        Hi, I'm claiming for my hospital bill in Austria. On day 3 of my week in Ischgl (cover 10–17 February
        2024) I caught an edge on a red run and broke my collarbone. Helicopter off the mountain and two nights
        in Innsbruck hospital, about €6,800. My policy schedule shows the standard single-trip cover, with the
        gadget add-on. Thanks, Freddie
        """, "hazardous_activity"),
    it(TRAVEL, """
        Claim TR-88741 — Ms Amara Okonjo
        Cover dates: 20–27 January 2024 (single trip, France). Schedule add-ons: winter sports. Declared conditions:
        none.
        Incident: on 23 January, skiing on a blue run in Val Thorens, she twisted her knee in a fall; she was taken down
        by the piste rescue sledge and treated at the resort clinic (knee ligament sprain, brace fitted). She was sober
        and skiing on the marked pistes. Costs: rescue €420, clinic €610.
        """, "covered"),
    it(TRAVEL, """
        Claim TR-88902. Decompression illness after a wreck dive to 35 metres off Sharm el-Sheikh on
        12 October 2024; treated in a hyperbaric chamber. Cover dates 8–18 October 2024. Schedule add-ons: none.
        The insured holds an advanced diving certificate and dived with a licensed operator.
        """, "hazardous_activity"),
    it(TRAVEL, {
        "claim": "TR-89010",
        "insured": "Sebastian Krüger",
        "cover_dates": "2024-09-05 to 2024-09-19",
        "incident_date": "2024-09-11",
        "incident": "Ear barotrauma after a reef dive to 18 metres in Bali; clinic visit and antibiotics",
        "schedule": {"declared_conditions": [], "add_ons": []},
        "medical_history": "No ear problems before the trip",
    }, "covered"),
    it(TRAVEL, """
        Hospital report, Hospital Universitario Son Espases, Mallorca, 27 July 2024, 02:10: patient fell from a
        hotel balcony (first floor) and fractured his ankle. Blood alcohol on admission: 1.1 g/L. (Spanish legal
        driving limit: 0.5 g/L.) Cover dates on the schedule: 20–30 July 2024.
        """, "alcohol"),
    it(TRAVEL, """
        Claim TR-89377. During a two-week holiday in Budapest (cover 2–16 April 2024), Mrs Varga had a crown
        replaced on a back tooth at a private clinic because it was much cheaper than at home. The old crown
        was worn but not causing pain or infection. Cost: €540.
        """, "elective_treatment"),
    it(TRAVEL, """
        Claim TR-89455. Miss Grace Whitcombe flew from London to Vancouver on 1 July 2024 for a month visiting family,
        with her return flight booked for 1 August 2024 (cover dates on the schedule: 1 July to 1 August 2024). On
        29 July she was taken to Vancouver General Hospital with acute appendicitis and had an emergency appendectomy.
        No declared conditions; no add-ons; no history of abdominal problems. Hospital bill: CAD 18,400.
        """, "covered"),
    it(TRAVEL, """
        Email from the insured, 12 November 2024: "I was working remotely from Lisbon — I flew out on
        1 October 2024 and came back on 5 November 2024. On 2 October I got a nasty chest infection and saw a
        private GP twice, €260 in total. The policy schedule says cover 1 October to 5 November, no conditions
        declared. Please reimburse."
        """, "trip_too_long"),
    # ---- outpatient payment band ------------------------------------------------------------------------------
    it(OUTPATIENT, """
        Claim OP-71204 — Mr Kwame Asante (first claim of this plan year)
        Provider: CityPhysio, Birmingham. Service: physiotherapy assessment on 6 February 2024 for lower back pain.
        Billed £150; the plan's allowed amount for this code is £150.
        Annual deductible: £200, nothing paid towards it yet this year.
        Outpatient limit remaining: £1,500.
        Member's note: "Please let me know what I'll get back — I've booked five more sessions."
        """, "nothing"),
    it(OUTPATIENT, {
        "claim": "OP-71388",
        "member": "Leonie Fischer",
        "provider": "Harley Imaging",
        "lines": [{"service": "Outpatient MRI, shoulder", "date": "2024-05-14", "billed": 1600.00,
                   "allowed": 1200.00}],
        "annual_deductible": 250.00,
        "deductible_paid_so_far_this_year": 100.00,
        "outpatient_limit_remaining": 3000.00,
    }, "500_to_1000"),
    it(OUTPATIENT, """
        Claim OP-71455. Outpatient colonoscopy, billed £2,000 (the plan's allowed amount is also £2,000). The
        member met this year's deductible in March. Outpatient limit: £2,500 for the year, of which £2,150 has
        already been paid on earlier claims.
        """, "100_to_500"),
    it(OUTPATIENT, """
        From the plan's claims system, 4 June 2024:
        Member: Siddharth Rao. Provider: Dr M. Lowe, consultant rheumatologist.
        Line 1: consultant follow-up on 3 June 2024 — billed £250.00, allowed £250.00.
        Deductible remaining for the year before this claim: £150.00.
        Outpatient limit remaining: £2,000.00.
        Payment to: member (invoice paid by card at the clinic).
        """, "up_to_100"),
    it(OUTPATIENT, {
        "claim": "OP-71633",
        "member": "Morag Sinclair",
        "provider": "Edinburgh Hand Clinic",
        "lines": [
            {"service": "Outpatient hand surgery (carpal tunnel release)", "billed": 2600.00, "allowed": 2450.00},
            {"service": "Post-operative review", "billed": 400.00, "allowed": 350.00},
        ],
        "deductible_remaining": 250.00,
        "outpatient_limit_remaining": 4000.00,
    }, "over_1000"),
    it(OUTPATIENT, """
        Member portal message: "I've just had my follow-up scans (£900 invoice, fully within your fee schedule)
        but the portal says my outpatient limit for this year is used up — £0 left. The deductible was already
        met back in February. Will you pay anything at all, or do I have to wait for the new plan year?"
        """, "nothing"),
    it(OUTPATIENT, """
        Claim OP-71812, Mr Patrick Dunne. Outpatient ultrasound-guided injection to the right Achilles tendon at the
        Sports Injury Clinic, Bath, on 9 July 2024. The clinic billed £1,400; the plan's allowed amount for this
        procedure is £1,250. Mr Dunne's annual deductible was fully met by earlier claims. Outpatient limit remaining:
        £3,000.
        """, "500_to_1000"),
    it(OUTPATIENT, """
        Claim OP-71904. Single outpatient consultation with a dermatologist on 22 July 2024. Billed £130; the
        plan's fee schedule allows £110 for this code. Deductible: already met for the year. Outpatient limit
        remaining: £1,200. The member has asked for payment to go to the clinic directly.
        """, "up_to_100"),
    it(OUTPATIENT, """
        Claim OP-72016 — Mrs Agnieszka Wrona, Stone Centre Leeds
        Outpatient lithotripsy for a kidney stone on 21 August 2024. Billed £5,000; allowed amount £4,000.
        Deductible still to pay this year: £300. Outpatient limit remaining this year: £800 (most of it was used on
        earlier scans and consultations about the same stone).
        """, "500_to_1000"),
    it(OUTPATIENT, {
        "claim": "OP-72150",
        "member": "Euan Buchanan",
        "provider": "FootCare Podiatry",
        "lines": [{"service": "Podiatry, two sessions", "date": "2024-04-18", "billed": 300.00,
                   "allowed": 300.00}],
        "annual_deductible": 300.00,
        "deductible_paid_so_far_this_year": 0.00,
        "outpatient_limit_remaining": 1000.00,
    }, "nothing"),
    it(OUTPATIENT, """
        Claim OP-72233 — worksheet prepared for the assessor

        Member: Mr Jonah Feld, plan Silver Outpatient. Plan year: 1 January to 31 December 2024.
        Claim received 9 September 2024 for treatment on 2 September 2024 at Lakeside Medical.

        Line 1: consultant physician appointment (new patient) — billed £220.00; plan's allowed amount £180.00.
        Line 2: blood panel (FBC, U&E, LFT, HbA1c) — billed £140.00; plan's allowed amount £140.00.

        Deductible: annual deductible £150.00. Already paid by the member on earlier claims this year: £130.00
        (physiotherapy in March, £80.00; GP-referral consultation in June, £50.00).
        Outpatient limit: £2,000.00 for the year; £200.00 paid so far, so £1,800.00 remaining.

        Member's note: "I assume you'll cover the full £360 as I've already paid most of my excess."
        """, "100_to_500"),
    it(OUTPATIENT, {
        "claim": "OP-72390",
        "member": "Nadia Haddad",
        "provider": "ENT Day Unit, Manchester",
        "lines": [{"service": "Outpatient sinus surgery (balloon sinuplasty)", "billed": 1900.00,
                   "allowed": 1900.00}],
        "deductible_remaining": 50.00,
        "outpatient_limit_remaining": 2500.00,
    }, "over_1000"),
    # ---- short-term disability ---------------------------------------------------------------------------
    it(STD, {
        "employee": "Naomi Achterberg",
        "job": "Customer service adviser",
        "hire_date": "2024-01-08",
        "first_day_of_absence": "2024-06-20",
        "return_to_work": "2024-07-22",
        "cause": "Slipped disc (at home, lifting a suitcase)",
        "certificate_received": "2024-06-24",
        "manager_note": "Naomi has been a great addition to the team; please support her claim.",
    }, "fails_service"),
    it(STD, """
        HR case note: Dev Malhotra (hired 2019) was off sick with flu from Monday 4 March 2024 to Sunday
        10 March 2024 inclusive and came back to work on Monday 11 March. His GP note arrived on 6 March. He has
        asked whether he can claim short-term disability for the week.
        """, "fails_elimination"),
    it(STD, """
        STD claim form — employee section
        Name: Lucia Ferreira, finance analyst; start date with the company 17 May 2021.
        Reason for absence: planned spinal surgery (discectomy) for a herniated disc; not related to work.
        First day off work: Monday 1 April 2024. Returned to work: Tuesday 9 April 2024 (phased return agreed).
        Medical certificate: sent by the hospital, received by HR on 15 April 2024.
        """, "eligible"),
    it(STD, """
        From: Priya Natarajan (HR Business Partner)
        To: Benefits Team
        Date: 6 June 2024
        Subject: STD claim — Owen Trask

        Hi both,

        Passing on Owen's short-term disability claim. Quick background: Owen has been a warehouse planner with us
        since March 2020. He broke his ankle in a fall while hiking in the Peak District on Saturday 27 April, on his
        own time — nothing to do with work. He tried working from Monday to Wednesday with a crutch but couldn't manage
        the stairs to the planning office, so his first day off was Thursday 2 May 2024, and he's still signed off
        now; the fracture clinic expects another four weeks.

        The one snag is his fit note. His GP issued it on 3 May, but Owen posted it to his old line manager at the
        Derby site, who has since left, and it only reached us yesterday — we logged it as received on 5 June 2024.
        Owen has asked me to explain that it was an honest mistake.

        Let me know if you need anything else.
        Priya
        """, "fails_certificate"),
    it(STD, """
        Email to the benefits team, 15 May 2024: "Hi, I'd like to claim short-term disability. I've worked here since
        November 2018. I had a rhinoplasty on 10 May and I'm off from 13 May for about three weeks while the swelling
        goes down. My surgeon's letter is attached — it says the operation was cosmetic and not medically required, but
        I'm still genuinely unable to work. My medical certificate is attached too. Thanks, Chantelle Moreau"
        """, "fails_excluded_cause"),
    it(STD, """
        Incident report + STD claim: Pawel Zielinski (forklift driver, hired 2016) fell from a stepladder in
        Bay 14 of the distribution centre during his shift on 9 July 2024 and fractured his wrist. Off work from
        10 July, expected back in late August. Certificate received 12 July.
        """, "refer_workers_comp"),
    it(STD, """
        HR referral to the STD insurer, 21 August 2024
        Employee: Rhiannon Beddoes, lab technician. Hire date: 19 February 2024.
        Absence: pneumonia (not work-related); off from 1 July 2024, returned 12 August 2024.
        Certificate: GP fit note received 20 August 2024 (the employee was too unwell to send it earlier).
        Manager's comment: "Rhiannon has been an excellent new starter and was very ill — please consider her claim
        sympathetically."
        """, "fails_service"),
    it(STD, """
        STD claim: Ibrahim Sesay, hired 1 October 2023. Signed off with shingles from 29 March 2024; returned to
        work on 19 April 2024. The medical certificate was received by the benefits team on 2 May 2024.
        """, "fails_certificate"),
    it(STD, """
        Accident book entry, 19 August 2024, 12:40, staff canteen kitchen: Tomoko Hayashi (cook, employed since
        6 May 2024) burned both hands when a pan of hot oil tipped over during lunch service. First aid given; taken to
        the burns unit by a colleague.
        STD claim note: off work from 19 August, expected back 30 September. Certificate received 21 August.
        """, "refer_workers_comp"),
    it(STD, """
        Benefits inbox: "Hi, claim for my STD please. I was hired 12 June 2017. I've been off since 3 October
        2024 after a hysterectomy and my consultant says I'll be back mid-November. My certificate was sent in
        and your team logged it as received on 2 November 2024. — Gemma Lowther"
        """, "eligible"),
    it(STD, {
        "employee": "Craig Nuttall",
        "job": "Delivery driver",
        "hire_date": "2015-03-02",
        "first_day_of_absence": "2024-03-25",
        "return_to_work": "2024-05-06",
        "cause": "Leg injuries sustained while fleeing police after a shop burglary, off duty (conviction "
                 "recorded)",
        "certificate_received": "2024-03-28",
    }, "fails_excluded_cause"),
    it(STD, """
        HR note: Sinead Rafferty (hired 2012) was admitted to hospital with a kidney infection on Monday
        9 September 2024. She was off work from that day, was discharged on 13 September and was back at her desk
        on Monday 16 September. Certificate received 11 September.
        """, "fails_elimination"),
    # ---- travel delay ------------------------------------------------------------------------------------
    it(DELAY, """
        Flight EZY4412 Bristol to Faro, scheduled departure 12 July 2024 at 06:40. Technical fault; the
        replacement aircraft took off at 15:10 the same day. The delay was first announced at check-in.
        Policy bought 2 March 2024. The insured and her two children spent the day in the departure lounge.
        """, 1),
    it(DELAY, {
        "claim": "TD-30114",
        "insured": "Mr and Mrs Hollis",
        "flight": "BA2166 Gatwick to Tampa",
        "scheduled_departure": "2024-08-02 21:15",
        "actual_departure": "2024-08-03 22:05",
        "cause": "Aircraft damaged by ground equipment",
        "delay_first_notified": "2024-08-02 18:30",
        "policy_purchased": "2024-04-11",
        "airline_compensation_claimed": True,
    }, 3),
    it(DELAY, {
        "claim": "TD-30209",
        "insured": "Abigail Thorne",
        "flight": "Manchester to Reykjavik",
        "scheduled_departure": "2024-12-20 10:30",
        "actual_departure": "2024-12-22 11:00",
        "cause": "Volcanic ash closure of Icelandic airspace",
        "delay_first_notified": "at the gate, 2024-12-20 09:50",
        "policy_purchased": "2024-10-01",
    }, 4),
    it(DELAY, """
        Hi, our flight to Barcelona on 14 June 2024 (scheduled 07:00) didn't leave until 13:05 the next day
        because of the French air traffic control strike. The strike had been announced by the unions on
        2 May 2024. I bought the travel insurance on 10 May 2024 when we booked the trip. Can we claim the
        delay benefit? — Kerry Anne
        """, 0),
    it(DELAY, """
        Hello, claim for the delay benefit please. Our flight from Edinburgh to Lisbon was due out at 11:45 on
        26 September 2024. At 08:00 that morning the airline texted us to say it would be delayed because of the
        baggage handlers' strike (the strike was announced on 19 September). We finally took off at 07:45 on
        27 September. I bought the policy on 30 July 2024 when we booked. — Iain Ferguson
        """, 2),
    it(DELAY, """
        Claim TD-30452. Scheduled departure Glasgow to Dubai 3 September 2024 at 07:00. The airline emailed the
        insured on 1 September 2024 at 18:00 to say the flight was rescheduled because of crew availability. It
        finally left at 19:00 on 3 September. Policy bought in January.
        """, 0),
    it(DELAY, {
        "claim": "TD-30518",
        "insured": "Sophie Marsh",
        "flight": "Newcastle to Alicante",
        "scheduled_departure": "2024-10-05 16:20",
        "actual_departure": "2024-10-06 08:20",
        "cause": "Aircraft technical fault",
        "delay_first_notified": "2024-10-05 14:00",
        "policy_purchased": "2024-06-18",
    }, 2),
    it(DELAY, """
        Return flight Orlando to Heathrow, scheduled 4 November 2024 at 19:30 local time. Hurricane warning;
        the aircraft finally departed at 19:25 on 6 November 2024 local time. The insured was told about the
        delay at the airport. Policy bought 12 March 2024.
        """, 3),
    it(DELAY, {
        "claim": "TD-30690",
        "insured": "Ciaran Devlin",
        "flight": "Belfast to Palma",
        "scheduled_departure": "2024-06-22 06:10",
        "actual_departure": "2024-06-22 15:25",
        "cause": "Late arrival of inbound aircraft",
        "delay_first_notified": "2024-06-21 10:10 (text message)",
        "policy_purchased": "2024-02-14",
    }, 1),
    it(DELAY, """
        To: claims@wayfarer-insurance.co.uk
        Subject: Travel delay claim — policy WF-2024-118830 — Kowalczyk family

        Dear Sir or Madam,

        We were due to fly from Birmingham to Antalya on our family holiday on 18 August 2024, flight TK1970, scheduled
        to depart at 22:00. We checked in on time and waited at the gate, where at about 23:15 the captain announced a
        fault with the fuel system. After two more hours the airline cancelled the flight and we were sent to an
        airport hotel with two young children at 2am.

        The airline could not find seats for all four of us until the next available flight, which finally departed at
        23:30 on 20 August 2024. We lost two full days of our holiday and the hotel in Antalya would not refund the
        nights we missed.

        We bought this policy on 3 February 2024, when we booked the holiday. As far as we know there was no strike or
        industrial action involved; the airline's letter (attached) confirms the cancellation was for a technical
        fault. We were not told about any delay before we arrived at the airport.

        Please let us know what we can claim.

        Yours faithfully,
        Marek and Ewa Kowalczyk
        """, 4, amb=True),
    # ---- no-claims discount -------------------------------------------------------------------------------
    it(NCD, """
        Renewal invitation draft, policy MOT-550812 (Mr Amir Haddad, 2019 Skoda Octavia estate), renewal date
        1 November 2024. Current NCD: 3 years, not protected. Claims in the current policy year: none reported. Named
        driver: Leila Haddad. Mileage declared: 8,000. The customer has asked us to confirm his NCD at renewal before he
        shops around.
        """, 4),
    it(NCD, """
        Renewal check for Mrs Okonkwo: she has had the maximum 5 years' NCD for the last four renewals. No
        claims of any kind in this policy year — not even a windscreen. NCD not protected. She has asked whether
        adding her son as a named driver will affect her discount.
        """, 5),
    it(NCD, {
        "policy": "MOT-551093",
        "policyholder": "Graham Stokes",
        "vehicle": "2021 Ford Puma",
        "current_ncd_years": 4,
        "ncd_protected": False,
        "claims_this_policy_year": [
            {"date": "2024-02-11", "type": "collision", "fault": True,
             "description": "Reversed into a bollard in a supermarket car park; rear bumper and sensor replaced"},
        ],
    }, 2),
    it(NCD, """
        Policyholder Liam Costigan, current NCD 1 year, unprotected. On 14 May 2024 he rear-ended another car at
        a roundabout and accepted liability; we paid the third party's repairs and his own. No other claims this
        year. His renewal is due on 3 October.
        """, 0),
    it(NCD, {
        "policy": "MOT-551470",
        "policyholder": "Yvonne Achterberg",
        "vehicle": "2017 Toyota Yaris",
        "current_ncd_years": 3,
        "ncd_protected": False,
        "claims_this_policy_year": [
            {"date": "2024-06-30", "type": "windscreen only",
             "description": "Stone chip on the motorway became a crack; windscreen replaced by our approved "
                            "repairer"},
        ],
    }, 4),
    it(NCD, """
        Renewal note: Ms Farrow has 2 years' NCD, not protected. In March another driver hit her parked car; the
        other driver's insurer accepted liability and reimbursed all our costs in full in June. No other claims.
        She has asked for a quote with NCD protection added for next year.
        """, 3),
    it(NCD, """
        Claim history, policy MOT-551806 (Mr Oluwaseun Bankole): NCD 4 years, not protected. On 19 January 2024 his
        car was hit while parked by a driver who then drove off; the driver was never traced, so none of our £2,340
        repair costs could be recovered. No other claims this year. Mr Bankole says it wasn't his fault, so his
        discount shouldn't change.
        """, 2),
    it(NCD, """
        Mr Adebayo's policy has NCD protection. His current NCD is 5 years. This year he had one at-fault claim
        (scraped a van in a car park in August; we paid for both vehicles). Nothing else. Renewal due
        1 December 2024.
        """, 5),
    it(NCD, {
        "policy": "MOT-552118",
        "policyholder": "Charlotte Vance",
        "current_ncd_years": 5,
        "ncd_protected": True,
        "claims_this_policy_year": [
            {"date": "2024-03-02", "type": "collision", "fault": True, "description": "Hit a wall on ice"},
            {"date": "2024-09-14", "type": "collision", "fault": True, "description": "Clipped a cyclist's "
                                                                                       "bike while turning"},
        ],
    }, 3),
    it(NCD, """
        Renewal for Mr Pettigrew: NCD currently 3 years, no protection. Two fault claims this year: hit a gate
        post in January and went into the back of a taxi in July. He has asked why his premium has gone up.
        """, 0),
    it(NCD, {
        "policy": "MOT-552407",
        "policyholder": "Ella Brightwater",
        "vehicle": "2014 Vauxhall Corsa",
        "current_ncd_years": 0,
        "ncd_protected": False,
        "claims_this_policy_year": [],
        "note": "First year of driving; policy started with no NCD. Telematics box fitted.",
    }, 1),
    # ---- contents claim band ------------------------------------------------------------------------------
    it(CONTENTS, """
        Burglary at home, 3 March 2024. Items taken: 55-inch TV (£900), laptop (£1,200), and a gold watch valued
        at £2,400. Nothing is specified on the schedule. Personal possessions add-on: no. Crime reference
        MET-24-11830.
        """, 3),
    it(CONTENTS, {
        "claim": "CT-44102",
        "policyholder": "Meera Joshi",
        "cause": "Burglary at home (entry through a rear window)",
        "items": [
            {"item": "Diamond engagement ring", "value": 6000.00, "specified_sum_insured": 6000.00},
            {"item": "Laptop", "value": 800.00},
        ],
        "personal_possessions_add_on": False,
        "police_reference": "SYP-24-30021",
    }, 4),
    it(CONTENTS, """
        Claim CT-44230 — Mr Ronan Fitzgerald. A plumber who came to fix the boiler on 7 May 2024 is believed to have
        taken £800 in cash from a kitchen drawer while Mr Fitzgerald was out of the room. Police have a suspect (crime
        reference GMP-24-77310). No other items are missing. The policy includes the personal possessions add-on;
        nothing is specified on the schedule.
        """, 1),
    it(CONTENTS, """
        Hi, I lost my phone (worth about £700) on a ferry between Athens and Paros on holiday. I've checked my
        schedule and I only have buildings and contents cover, no add-ons. Can I claim? — Bethan
        """, 0),
    it(CONTENTS, {
        "claim": "CT-44319",
        "policyholder": "Giulia Romano",
        "cause": "Phone left in a taxi in Rome; taxi company could not find it",
        "items": [{"item": "Smartphone", "value": 700.00}],
        "personal_possessions_add_on": True,
        "loss_report": "Lost-property report from the taxi company",
    }, 2),
    it(CONTENTS, {
        "claim": "CT-44405",
        "policyholder": "Steven Marsh",
        "cause": "Burglary at home (back door forced)",
        "items": [
            {"item": "Sunglasses", "value": 60.00},
            {"item": "Umbrella", "value": 25.00},
            {"item": "Wireless headphones", "value": 55.00},
        ],
        "personal_possessions_add_on": False,
        "police_reference": "TVP-24-40551",
    }, 0),
    it(CONTENTS, """
        Flood in the ground-floor flat, 12 February 2024. Damaged beyond repair: leather sofa (£2,200), wool rug
        (£600), floor lamp (£90). Nothing specified on the schedule. All items were inside the flat. Loss
        adjuster has seen the damage and agrees the values.
        """, 3),
    it(CONTENTS, """
        Burglary claim CT-44687, Lady Annabel Frome. Thieves entered through a cellar window on 18 January 2024.
        Stolen: a signed oil painting by a Scottish colourist, recently valued at £11,000 and specified on the schedule
        with a sum insured of £9,000, and £250 in cash from a bureau drawer. Personal possessions add-on: not taken.
        Police attended; the forensic team found no fingerprints.
        """, 4),
    it(CONTENTS, """
        Claim CT-44720: a window cleaner's ladder fell through the conservatory roof and the glass broke a
        camera on the table (value £450); £100 in cash in an envelope on the same table was also lost (blown
        into the garden pond and ruined). No specified items. Both items were inside the home and the cause is
        covered by the policy.
        """, 1),
    it(CONTENTS, {
        "claim": "CT-44893",
        "policyholder": "Femi Oduya",
        "cause": "Laptop stolen from the boot of the policyholder's car at a railway station car park",
        "items": [{"item": "Laptop", "value": 2100.00}],
        "personal_possessions_add_on": True,
        "police_reference": "BTP-24-11982",
    }, 2),
    # ---- vision lines ---------------------------------------------------------------------------------------
    it(VISION, """
        From: ClearView Opticians, Exeter — direct billing claim VS-12044
        Patient: Harriet Doyle. Date of service: 10 May 2024.
        Lines: (1) eye examination £30; (2) varifocal spectacle lenses £240; (3) frames £149.
        Plan history for this member: eye examination last paid 2 May 2023; lenses last paid 2 May 2023; frames last
        paid 1 April 2022.
        """, 3),
    it(VISION, {
        "claim": "VS-12101",
        "member": "Tobias Grant",
        "optician": "High Street Eyecare",
        "service_date": "2024-09-10",
        "lines": ["eye examination", "spectacle lenses", "frames"],
        "last_paid": {"eye examination": "2023-09-15", "lenses": "2023-09-15", "frames": "2023-09-15"},
    }, 0),
    it(VISION, """
        Claim VS-12177, service date 1 March 2024, three lines: eye test, single-vision lenses, new frames.
        Benefit history: eye test last paid 1 March 2023; lenses last paid 1 August 2023; frames never claimed.
        """, 2),
    it(VISION, """
        Claim VS-12230 from Lux Optical for Ms Celeste Armitage, service date 14 February 2024: eye examination (£35)
        and a pair of designer sunglasses without a prescription (£185). The member's last paid eye examination was on
        3 November 2022; she has not claimed lenses or frames before.
        """, 1),
    it(VISION, """
        Member email: "Hi, claiming for my contact lenses (3-month supply) and the contact lens check-up exam,
        both on 1 June 2024. Your portal says my last lenses claim was 5 January 2024 and my last eye exam was
        2 June 2023."
        """, 0),
    it(VISION, {
        "claim": "VS-12388",
        "member": "Nikhil Bose",
        "optician": "Specsavvy, Coventry",
        "service_date": "2024-07-20",
        "lines": ["frames", "spectacle lenses", "eye examination"],
        "last_paid": {"frames": "2022-07-20", "lenses": "2023-07-21", "eye examination": "2023-07-19"},
    }, 2),
    it(VISION, """
        New member, joined the vision plan in April 2024 through her employer and has never claimed before. Claim
        VS-12415 from Pinewood Opticians has one line: eye examination on 16 May 2024, £25. The optometrist noted a
        small change in prescription but the member decided to keep her current glasses for now.
        """, 1),
    it(VISION, {
        "claim": "VS-12502",
        "member": "Rosalind Petch",
        "optician": "Bright Eyes Opticians",
        "service_date": "2024-08-08",
        "lines": ["eye examination", "spectacle lenses", "frames", "clip-on sunglasses (non-prescription)"],
        "last_paid": {},
        "note": "First ever vision claim.",
    }, 3),
    it(VISION, """
        Claim VS-12590, all on 1 April 2024: (1) eye examination; (2) spectacle lenses for reading glasses;
        (3) monthly contact lenses, 6-month supply. Last paid: eye examination 1 April 2023; lenses (any kind)
        1 January 2023. No frames on this claim.
        """, 2),
    it(VISION, {
        "claim": "VS-12633",
        "member": "Declan Moriarty",
        "optician": "Vision Express",
        "service_date": "2024-10-01",
        "lines": ["frames", "eye examination", "spectacle lenses"],
        "last_paid": {"frames": "2023-12-01", "eye examination": "2024-01-15", "lenses": "2023-09-30"},
    }, 1),
]
