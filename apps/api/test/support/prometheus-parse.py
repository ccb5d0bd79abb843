"""Reads a Prometheus text exposition on stdin with the Prometheus project's own parser (its
Python client, Debian's python3-prometheus-client) and prints its samples as JSON: families
with their type, each sample's name, labels and value. Refuses (exit 1) text it cannot parse."""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

def number(value):
    """JSON has no NaN or infinities (a gauge with no data yet is NaN): those go as JS reads them."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


families = []
for family in text_string_to_metric_families(sys.stdin.read()):
    families.append({
        "name": family.name,
        "type": family.type,
        "help": family.documentation,
        "samples": [{"name": s.name, "labels": s.labels, "value": number(s.value)} for s in family.samples],
    })
json.dump(families, sys.stdout)
