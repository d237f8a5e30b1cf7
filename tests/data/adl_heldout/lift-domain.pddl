; Lift: a Miconic-ADL-like elevator written for the held-out ADL suite (tests/test_adl_heldout.py).
; Universal and implied preconditions (VIPs first, no-access floors, attendants), boarding and leaving
; as conditional effects of one stop action, a universally quantified goal.
(define (domain lift)
  (:requirements :adl :typing)
  (:types passenger floor)
  (:predicates (origin ?p - passenger ?f - floor) (destin ?p - passenger ?f - floor)
               (above ?f1 ?f2 - floor) (lift-at ?f - floor)
               (boarded ?p - passenger) (served ?p - passenger)
               (vip ?p - passenger) (no-access ?p - passenger ?f - floor)
               (needs-attendant ?p - passenger) (attendant ?p - passenger))
  (:action up
    :parameters (?f1 ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f1 ?f2))
    :effect (and (lift-at ?f2) (not (lift-at ?f1))))
  (:action down
    :parameters (?f1 ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1))
    :effect (and (lift-at ?f2) (not (lift-at ?f1))))
  (:action stop
    :parameters (?f - floor)
    :precondition (and (lift-at ?f)
                       ; while a VIP waits unserved, stop only where a VIP boards or leaves
                       (imply (exists (?v - passenger) (and (vip ?v) (not (served ?v))))
                              (exists (?v - passenger) (and (vip ?v) (not (served ?v))
                                                            (or (and (origin ?v ?f) (not (boarded ?v)))
                                                                (and (boarded ?v) (destin ?v ?f))))))
                       ; nobody on board may be at a floor they have no access to
                       (forall (?p - passenger) (imply (boarded ?p) (not (no-access ?p ?f))))
                       ; who needs an attendant boards only with one on board or boarding here
                       (forall (?p - passenger)
                         (imply (and (needs-attendant ?p) (origin ?p ?f) (not (served ?p)))
                                (exists (?a - passenger) (and (attendant ?a) (not (served ?a))
                                                              (or (boarded ?a) (origin ?a ?f)))))))
    :effect (and (forall (?p - passenger)
                   (when (and (boarded ?p) (destin ?p ?f))
                         (and (not (boarded ?p)) (served ?p))))
                 (forall (?p - passenger)
                   (when (and (origin ?p ?f) (not (served ?p)) (not (destin ?p ?f)))
                         (boarded ?p))))))
