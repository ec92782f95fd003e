#!/bin/bash
# usage: swab.sh OUT BIN1 BIN2 ids...
out=$1; b1=$2; b2=$3; shift 3
for id in "$@"; do
  python3 /tmp/mkbug.py $id >/dev/null || continue
  for tag in 1 2; do
    bin=$b1; [ $tag = 2 ] && bin=$b2
    cd /tmp/bug-$id
    s=$(date +%s.%N)
    nice -n 19 $bin autofix --rank-only --refine switching --format json --target-dir /tmp/swab-tgt/$id -q > /tmp/swab-$id-$tag.json 2>/dev/null
    e=$(date +%s.%N)
    python3 - $id $tag $s $e <<'PY' >> $out
import json,sys
id,tag,s,e=sys.argv[1:]
d=json.load(open('/tmp/swab-%s-%s.json'%(id,tag)))
crit=sorted('%s:%s'%(x['file'],x['line']) for x in d['ranking'] if 'switch' in str(x.get('why','')) or x.get('critical'))
print(json.dumps({'id':id,'arm':tag,'seconds':float(e)-float(s),'switched':d.get('switched_conditions'),'critical':crit}))
PY
  done
done
