; a durative action (line 6); its requirement, declared on line 4, is what is reported first
(define (domain timed)
  (:requirements :strips
                 :durative-actions)
  (:predicates (at ?p))
  (:durative-action go
    :parameters (?a ?b)
    :duration (= ?duration 5)
    :condition (at start (at ?a))
    :effect (and (at start (not (at ?a))) (at end (at ?b)))))
