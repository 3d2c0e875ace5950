# Set a notebook cell's source from text, keeping the notebook's JSON format.
import json, sys
def load(path):
    return json.load(open(path))
def save(nb, path):
    with open(path, 'w') as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write('\n')
def set_source(nb, i, text):
    lines = text.split('\n')
    src = [l + '\n' for l in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    nb['cells'][i]['source'] = src
def get(nb, i):
    return ''.join(nb['cells'][i]['source'])
